/* What the two compiled parts of the content walk share (_textshow.c, _walkloop.c): the
 * walk's matrices as doubles and geometry.translate on them, setting an attribute to a new
 * object and adding to a count. Each file includes this after its fp-contract pragma, so
 * the translation is rounded as Python rounds it (twice, no fused multiply-add). */
#ifndef TEXTLAYER_WALKSHARED_H
#define TEXTLAYER_WALKSHARED_H

#include <Python.h>

/* The six floats of a matrix that is an exact tuple of six floats; 0 when it is not one. */
static inline int floats6(PyObject *m, double out[6])
{
    if (!PyTuple_CheckExact(m) || PyTuple_GET_SIZE(m) != 6) return 0;
    for (int k = 0; k < 6; k++) {
        PyObject *v = PyTuple_GET_ITEM(m, k);
        if (!PyFloat_CheckExact(v)) return 0;
        out[k] = PyFloat_AS_DOUBLE(v);
    }
    return 1;
}

/* geometry.translate(m, tx, ty) for `m` (an exact 6-tuple) and its floats `v`: the first
 * four entries kept, the last two moved, (tx*a + ty*c + e, tx*b + ty*d + f). */
static inline PyObject *translate(PyObject *m, const double v[6], double tx, double ty)
{
    double e = tx * v[0] + ty * v[2] + v[4];
    double f = tx * v[1] + ty * v[3] + v[5];
    return Py_BuildValue("(OOOOdd)", PyTuple_GET_ITEM(m, 0), PyTuple_GET_ITEM(m, 1),
                         PyTuple_GET_ITEM(m, 2), PyTuple_GET_ITEM(m, 3), e, f);
}

/* obj.name = value, taking the reference to `value`; NULL (its maker failed) gives -1 with
 * that exception set. */
static inline int set_new(PyObject *obj, PyObject *name, PyObject *value)
{
    if (value == NULL) return -1;
    int r = PyObject_SetAttr(obj, name, value);
    Py_DECREF(value);
    return r;
}

/* obj.name += n for an int attribute (a FontUse counter, the walker's counts). */
static inline int add_to(PyObject *obj, PyObject *name, PyObject *n)
{
    PyObject *old = PyObject_GetAttr(obj, name);
    if (old == NULL) return -1;
    PyObject *sum = PyNumber_InPlaceAdd(old, n);
    Py_DECREF(old);
    return set_new(obj, name, sum);
}

#endif
