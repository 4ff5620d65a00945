"""The adcli program's first module: it runs before numpy, click and the rest are imported."""
import gc

# One command per process, and what it makes is freed by reference counting: adcli's graphs
# hold no reference cycles (a Function sees its output through a weak reference), and a
# run leaves at most a few hundred objects in cycles (an error's traceback, say), freed at
# exit. The cycle collector would only rescan what importing numpy, click and adcli made
# (~100,000 objects, none garbage) dozens of times: ~8% of a one-point run, counted with
# callgrind. So it stays off, as the pipeline already kept it for its runs.
gc.disable()


def entry() -> None:
    from .cli import entry as run

    run()
