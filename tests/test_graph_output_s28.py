"""graph -o writes through a symbolic link, as plot -o does (it replaced the link with a
file of its own), and into a device directly (a full disk behind a link went unsaid)."""
import os
import stat

import pytest
from conftest import run_cli


def test_a_link_stays_and_its_file_is_written(tmp_path):
    target, link = tmp_path / "target.dot", tmp_path / "link.dot"
    target.write_text("old\n")
    link.symlink_to(target.name)
    code, out, err = run_cli("graph", "sin(x)", "--at", "x=1", "-o", str(link))
    assert (code, out, err) == (0, "", "")
    assert link.is_symlink() and os.readlink(link) == "target.dot"
    assert target.read_text().startswith("digraph adcli {")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_behind_a_link_is_said_and_left_as_it_is(tmp_path):
    link = tmp_path / "full.dot"
    link.symlink_to("/dev/full")
    code, out, err = run_cli("graph", "sin(x)", "--at", "x=1", "-o", str(link))
    assert (code, out) == (2, "")
    assert err == f"adcli: error: cannot write {str(link)!r}: No space left on device\n"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and link.is_symlink()
