/* sin and cos of one argument in one call (glibc's sincos), for the kernel's steps that need
 * both: E3's sin(x) and its rule's cos(x). glibc computes sincos with the code of sin and cos
 * (one reduction shared), so the numbers are np.sin's and np.cos's to the bit, which
 * adcli/kernel.py checks on probes before using it; measured 8.7 ns a point for both where
 * the two calls take 14.
 *
 * Only "plain" points are done here: finite, |x| <= limit, and zero or normal. Elsewhere
 * sin and cos raise floating-point flags (inf: invalid; a subnormal: underflow) that numpy
 * counts and adcli reports, or need the long double repair past functions.FAR: given such a
 * point, or an x that is not a contiguous float64 array (a strided column), nothing is
 * written and False is returned, for the caller to use numpy's ufuncs.
 * Built only with glibc (the build is optional: without it, or without a compiler, adcli
 * uses np.sin and np.cos). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <string.h>

#ifndef __GLIBC__
#error "sincos with sin's and cos's own numbers is glibc's"
#endif

static int
doubles(PyObject *object, Py_buffer *view, int writable)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0)
        return -1;
    if (view->itemsize != sizeof(double) || strcmp(view->format, "d") != 0) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "sincos takes contiguous float64 arrays");
        return -1;
    }
    return 0;
}

static int
all_plain(const double *x, Py_ssize_t n, double limit)
{
    int odd = 0;  /* no early exit: the loop stays one the compiler can vectorize */
    for (Py_ssize_t i = 0; i < n; i++) {
        double a = fabs(x[i]);
        odd |= !(a <= limit) | ((a < DBL_MIN) & (a != 0.0));
    }
    return !odd;
}

static PyObject *
sincos_into(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer x, s, c;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "sincos(x, sin_out, cos_out, limit)");
        return NULL;
    }
    double limit = PyFloat_AsDouble(args[3]);
    if (limit == -1.0 && PyErr_Occurred())
        return NULL;
    if (!(limit <= DBL_MAX))  /* inf stays out: it raises invalid */
        limit = DBL_MAX;
    if (doubles(args[0], &x, 0) < 0) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    if (doubles(args[1], &s, 1) < 0) {
        PyBuffer_Release(&x);
        return NULL;
    }
    if (doubles(args[2], &c, 1) < 0) {
        PyBuffer_Release(&x);
        PyBuffer_Release(&s);
        return NULL;
    }
    Py_ssize_t n = x.len / (Py_ssize_t)sizeof(double);
    int done = 0;
    if (s.len != x.len || c.len != x.len)
        PyErr_SetString(PyExc_ValueError, "sincos: arrays of different lengths");
    else {
        const double *in = x.buf;
        double *sin_out = s.buf, *cos_out = c.buf;
        Py_BEGIN_ALLOW_THREADS
        done = all_plain(in, n, limit);
        if (done)
            for (Py_ssize_t i = 0; i < n; i++) {
                double v = in[i];  /* read before writing: cos_out may be x's own buffer */
                sincos(v, &sin_out[i], &cos_out[i]);
            }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&x);
    PyBuffer_Release(&s);
    PyBuffer_Release(&c);
    if (PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(done);
}

static PyMethodDef methods[] = {
    {"sincos", (PyCFunction)(void (*)(void))sincos_into, METH_FASTCALL,
     "sincos(x, sin_out, cos_out, limit) -> bool: both, if every x is plain."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sincos", NULL, -1, methods,
};

PyMODINIT_FUNC
PyInit__sincos(void)
{
    return PyModule_Create(&module);
}
