/* The operator loop of the content walk, in C: content._Walker.walk's common operators.
 *
 * run(walker, ops, i, state, resources, tm, tlm, depth, type3, fonts, stack, marked, spans)
 * interprets ops[i:] as the Python loop of _Walker.walk does, operator for operator, on the
 * same objects: the walker, the graphics state (a content._State), the Tf cache `fonts`, the
 * q/Q `stack`, the marked-content lists `marked` and `spans`. It stops at the first operator
 * it leaves to Python (Do, a BDC with properties, BI, a font not yet looked up, anything of
 * an unusual shape)
 * and returns (its index, tm, tlm, state): the Python loop interprets that one and calls
 * again. The operators it knows are nine in ten of a typeset page: their Python time went
 * to the dispatch and the attribute traffic, not to their arithmetic.
 *
 * A malformed operand skips its operator exactly where the Python skips it: the operator's
 * effects before the failing step stay, as in the Python, and only the exceptions the Python
 * loop swallows are swallowed (rules() hands them over, with the text-showing function and
 * the identity matrix, so that nothing is defined twice). The matrix arithmetic is
 * geometry.py's, in its order, on doubles, with no fused multiply-add (Python rounds twice).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "_walkshared.h"

static PyObject *show_fn, *swallowed, *identity;
static PyObject *s_paths, *s_hidden, *s_leading, *s_render, *s_scale, *s_rise, *s_ctm;
static PyObject *s_font_key, *s_font, *s_text_font, *s_size, *s_copy, *one, *marked_none;

enum {
    OP_OTHER, OP_TJ_LOWER, OP_TJ_ARRAY, OP_TD, OP_TD_UPPER, OP_TF, OP_TM, OP_TSTAR, OP_TL,
    OP_BT, OP_ET, OP_QUOTE, OP_DQUOTE, OP_TR, OP_Q_SAVE, OP_Q_RESTORE, OP_CM, OP_TZ, OP_TS,
    OP_PAINT, OP_BMC, OP_BDC, OP_EMC,
};

/* Which operator `op` (the bytes of an instruction's operator) is. */
static int kind_of(PyObject *op)
{
    if (!PyBytes_CheckExact(op)) return OP_OTHER;
    const char *s = PyBytes_AS_STRING(op);
    switch (PyBytes_GET_SIZE(op)) {
    case 1:
        switch (s[0]) {
        case 'q': return OP_Q_SAVE;
        case 'Q': return OP_Q_RESTORE;
        case '\'': return OP_QUOTE;
        case '"': return OP_DQUOTE;
        case 'S': case 's': case 'f': case 'F': case 'B': case 'b': return OP_PAINT;
        }
        return OP_OTHER;
    case 2:
        if (s[0] == 'T') {
            switch (s[1]) {
            case 'j': return OP_TJ_LOWER;
            case 'J': return OP_TJ_ARRAY;
            case 'd': return OP_TD;
            case 'D': return OP_TD_UPPER;
            case 'f': return OP_TF;
            case 'm': return OP_TM;
            case '*': return OP_TSTAR;
            case 'L': return OP_TL;
            case 'r': return OP_TR;
            case 'z': return OP_TZ;
            case 's': return OP_TS;
            }
            return OP_OTHER;
        }
        if (s[0] == 'B' && s[1] == 'T') return OP_BT;
        if (s[0] == 'E' && s[1] == 'T') return OP_ET;
        if (s[0] == 'c' && s[1] == 'm') return OP_CM;
        if ((s[0] == 'f' || s[0] == 'B' || s[0] == 'b') && s[1] == '*') return OP_PAINT;
        if (s[0] == 's' && s[1] == 'h') return OP_PAINT;
        return OP_OTHER;
    case 3:
        if (memcmp(s, "BMC", 3) == 0) return OP_BMC;
        if (memcmp(s, "BDC", 3) == 0) return OP_BDC;
        if (memcmp(s, "EMC", 3) == 0) return OP_EMC;
        return OP_OTHER;
    }
    return OP_OTHER;
}

/* float(obj) as a double; -1 with the exception set when float() raises. */
static int as_double(PyObject *obj, double *out)
{
    PyObject *f = PyNumber_Float(obj);
    if (f == NULL) return -1;
    *out = PyFloat_AS_DOUBLE(f);
    Py_DECREF(f);
    return 0;
}

/* -state.leading when it is a float; 0 (no exception) when it is something else. */
static int minus_leading(PyObject *state, double *out)
{
    PyObject *v = PyObject_GetAttr(state, s_leading);
    if (v == NULL) return -1;
    int ok = PyFloat_CheckExact(v);
    if (ok) *out = -PyFloat_AS_DOUBLE(v);
    Py_DECREF(v);
    return ok;
}

/* The shown operand's text step: tm = _show(walker, items, state, resources, tm, ...). */
static int show(PyObject **tm, PyObject *walker, PyObject *items, PyObject *state,
                PyObject *resources, PyObject *depth, PyObject *type3, PyObject *actual)
{
    PyObject *argv[8] = {walker, items, state, resources, *tm, depth, type3, actual};
    PyObject *moved = PyObject_Vectorcall(show_fn, argv, 8, NULL);
    if (moved == NULL) return -1;
    Py_SETREF(*tm, moved);
    return 0;
}

/* The text step on the last operand alone (Tj given more than one, ' and "). */
static int show_last(PyObject **tm, PyObject *walker, PyObject *args, PyObject *state,
                     PyObject *resources, PyObject *depth, PyObject *type3, PyObject *actual)
{
    PyObject *last = PyTuple_Pack(1, PyTuple_GET_ITEM(args, PyTuple_GET_SIZE(args) - 1));
    if (last == NULL) return -1;
    int r = show(tm, walker, last, state, resources, depth, type3, actual);
    Py_DECREF(last);
    return r;
}

/* (tm, tlm) = translate(tlm, tx, ty) for both: 0 when tlm is no matrix of floats. */
static int move_line(PyObject **tm, PyObject **tlm, double tx, double ty)
{
    double v[6];
    if (!floats6(*tlm, v)) return 0;
    PyObject *moved = translate(*tlm, v, tx, ty);
    if (moved == NULL) return -1;
    Py_INCREF(moved);
    Py_SETREF(*tm, moved);
    Py_SETREF(*tlm, moved);
    return 1;
}

/* cm: state.ctm = mul(matrix(args), state.ctm), nothing when matrix() gives None. Returns
 * 1 done, 0 left to Python (a ctm of another shape), -1 with an exception set. */
static int concat(PyObject *state, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    double m[6], c[6];
    for (Py_ssize_t k = 0; k < n; k++) {  /* matrix(): tuple(map(float, args)) */
        if (as_double(PyTuple_GET_ITEM(args, k), k < 6 ? &m[k] : &c[0]) < 0) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)
                || PyErr_ExceptionMatches(PyExc_ValueError)) {
                PyErr_Clear();
                return 1;  /* matrix() gives None: the operator does nothing */
            }
            return -1;
        }
    }
    if (n != 6) return 1;
    PyObject *ctm = PyObject_GetAttr(state, s_ctm);
    if (ctm == NULL) return -1;
    int ok = floats6(ctm, c);
    Py_DECREF(ctm);
    if (!ok) return 0;
    PyObject *product = Py_BuildValue(
        "(dddddd)", m[0] * c[0] + m[1] * c[2], m[0] * c[1] + m[1] * c[3],
        m[2] * c[0] + m[3] * c[2], m[2] * c[1] + m[3] * c[3],
        m[4] * c[0] + m[5] * c[2] + c[4], m[4] * c[1] + m[5] * c[3] + c[5]);
    return set_new(state, s_ctm, product) < 0 ? -1 : 1;
}

/* Tf with a name the stream has selected before (fonts[name], not None): 1 done, 0 left to
 * Python, -1 with an exception set. */
static int select_font(PyObject *state, PyObject *args, PyObject *fonts)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n < 1 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(args, 0))) return 0;
    PyObject *found = PyDict_GetItemWithError(fonts, PyTuple_GET_ITEM(args, 0));
    if (found == NULL) return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 3) return 0;
    Py_INCREF(found);
    int r = PyObject_SetAttr(state, s_font_key, PyTuple_GET_ITEM(found, 0)) < 0
            || PyObject_SetAttr(state, s_font, PyTuple_GET_ITEM(found, 1)) < 0
            || PyObject_SetAttr(state, s_text_font, PyTuple_GET_ITEM(found, 2)) < 0
            || (n > 1
                && set_new(state, s_size, PyNumber_Float(PyTuple_GET_ITEM(args, 1))) < 0);
    Py_DECREF(found);
    return r ? -1 : 1;
}

/* EMC: the innermost marked-content sequence ends (its ActualText span, its hidden layer). */
static int end_marked(PyObject *walker, PyObject *marked, PyObject *spans)
{
    Py_ssize_t n = PyList_GET_SIZE(marked);
    if (n == 0) return 0;
    PyObject *last = PyList_GET_ITEM(marked, n - 1);
    if (!PyTuple_CheckExact(last) || PyTuple_GET_SIZE(last) != 2) return 1;  /* to Python */
    Py_INCREF(last);
    int r = PyList_SetSlice(marked, n - 1, n, NULL);
    if (r == 0 && PyTuple_GET_ITEM(last, 0) != Py_None && PyList_GET_SIZE(spans))
        r = PyList_SetSlice(spans, PyList_GET_SIZE(spans) - 1, PyList_GET_SIZE(spans), NULL);
    if (r == 0) {
        PyObject *hidden = PyObject_GetAttr(walker, s_hidden);
        PyObject *less = hidden == NULL ? NULL
                                        : PyNumber_Subtract(hidden, PyTuple_GET_ITEM(last, 1));
        Py_XDECREF(hidden);
        r = set_new(walker, s_hidden, less);
    }
    Py_DECREF(last);
    return r < 0 ? -1 : 0;
}

static PyObject *run(PyObject *self, PyObject *const *argv, Py_ssize_t nargs)
{
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "run(walker, ops, i, state, resources, tm, tlm, "
                                         "depth, type3, fonts, stack, marked, spans)");
        return NULL;
    }
    if (show_fn == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_walkloop.rules() was not called");
        return NULL;
    }
    PyObject *walker = argv[0], *ops = argv[1], *resources = argv[4], *depth = argv[7];
    PyObject *type3 = argv[8], *fonts = argv[9], *stack = argv[10], *marked = argv[11];
    PyObject *spans = argv[12];
    if (!PyList_CheckExact(ops) || !PyDict_CheckExact(fonts) || !PyList_CheckExact(stack)
        || !PyList_CheckExact(marked) || !PyList_CheckExact(spans)) {
        PyErr_SetString(PyExc_TypeError, "ops, stack, marked and spans are lists, fonts a dict");
        return NULL;
    }
    Py_ssize_t i = PyLong_AsSsize_t(argv[2]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    PyObject *state = argv[3], *tm = argv[5], *tlm = argv[6];
    Py_INCREF(state);
    Py_INCREF(tm);
    Py_INCREF(tlm);
    Py_ssize_t count = PyList_GET_SIZE(ops);
    for (; i < count; i++) {
        PyObject *inst = PyList_GET_ITEM(ops, i);
        if (!PyTuple_CheckExact(inst) || PyTuple_GET_SIZE(inst) != 2) break;
        PyObject *args = PyTuple_GET_ITEM(inst, 1);
        int kind = kind_of(PyTuple_GET_ITEM(inst, 0));
        if (kind == OP_OTHER || !PyTuple_CheckExact(args)) break;
        Py_ssize_t n = PyTuple_GET_SIZE(args);
        PyObject *actual = PyList_GET_SIZE(spans) ? PyList_GET_ITEM(spans, 0) : Py_None;
        int r = 0;  /* -1 an exception (swallowed or raised), 1 left to Python */
        double x, y;
        switch (kind) {
        case OP_TJ_LOWER:
            if (n == 1)
                r = show(&tm, walker, args, state, resources, depth, type3, actual);
            else if (n > 1)
                r = show_last(&tm, walker, args, state, resources, depth, type3, actual);
            break;
        case OP_TJ_ARRAY:
            if (n)
                r = show(&tm, walker, PyTuple_GET_ITEM(args, 0), state, resources, depth, type3,
                         actual);
            break;
        case OP_TD:
            if (n < 2) {
                r = 1;
                break;
            }
            if (as_double(PyTuple_GET_ITEM(args, 0), &x) < 0
                || as_double(PyTuple_GET_ITEM(args, 1), &y) < 0) {
                r = -1;
                break;
            }
            r = move_line(&tm, &tlm, x, y);
            r = r < 0 ? -1 : !r;
            break;
        case OP_TD_UPPER: {
            double v[6];
            if (n < 2 || !floats6(tlm, v)) {
                r = 1;
                break;
            }
            if (as_double(PyTuple_GET_ITEM(args, 0), &x) < 0
                || as_double(PyTuple_GET_ITEM(args, 1), &y) < 0
                || set_new(state, s_leading, PyFloat_FromDouble(-y)) < 0) {
                r = -1;
                break;
            }
            r = move_line(&tm, &tlm, x, y) < 0 ? -1 : 0;
            break;
        }
        case OP_TF:
            r = select_font(state, args, fonts);
            r = r < 0 ? -1 : !r;
            break;
        case OP_TM:
            if (n == 6) {
                double v[6];
                int k = 0;
                while (k < 6 && as_double(PyTuple_GET_ITEM(args, k), &v[k]) == 0) k++;
                if (k < 6) {
                    r = -1;
                    break;
                }
                PyObject *m = Py_BuildValue("(dddddd)", v[0], v[1], v[2], v[3], v[4], v[5]);
                if (m == NULL) {
                    r = -1;
                    break;
                }
                Py_INCREF(m);
                Py_SETREF(tm, m);
                Py_SETREF(tlm, m);
            }
            break;
        case OP_TSTAR:
        case OP_QUOTE:
        case OP_DQUOTE:
            r = minus_leading(state, &y);
            if (r < 0) break;
            if (r == 0) {
                r = 1;
                break;
            }
            r = move_line(&tm, &tlm, 0.0, y);
            if (r <= 0) {
                r = r < 0 ? -1 : 1;
                break;
            }
            r = kind != OP_TSTAR && n
                    ? show_last(&tm, walker, args, state, resources, depth, type3, actual) : 0;
            break;
        case OP_TL:
            r = n < 1 ? 1
                      : set_new(state, s_leading, PyNumber_Float(PyTuple_GET_ITEM(args, 0)));
            break;
        case OP_BT:
            Py_INCREF(identity);
            Py_SETREF(tm, identity);
            Py_INCREF(identity);
            Py_SETREF(tlm, identity);
            break;
        case OP_ET:
            break;
        case OP_TR:
            r = n < 1 ? 1 : set_new(state, s_render, PyNumber_Long(PyTuple_GET_ITEM(args, 0)));
            break;
        case OP_Q_SAVE: {
            PyObject *saved = PyObject_CallMethodNoArgs(state, s_copy);
            r = saved == NULL ? -1 : PyList_Append(stack, saved);
            Py_XDECREF(saved);
            break;
        }
        case OP_Q_RESTORE: {
            Py_ssize_t depth_now = PyList_GET_SIZE(stack);
            if (depth_now) {
                PyObject *saved = PyList_GET_ITEM(stack, depth_now - 1);
                Py_INCREF(saved);
                Py_SETREF(state, saved);
                r = PyList_SetSlice(stack, depth_now - 1, depth_now, NULL);
            }
            break;
        }
        case OP_CM:
            r = concat(state, args);
            r = r < 0 ? -1 : !r;
            break;
        case OP_TZ:
            if (n < 1 || as_double(PyTuple_GET_ITEM(args, 0), &x) < 0) {
                r = n < 1 ? 1 : -1;
                break;
            }
            r = set_new(state, s_scale, PyFloat_FromDouble(x / 100.0));
            break;
        case OP_TS:
            r = n < 1 ? 1 : set_new(state, s_rise, PyNumber_Float(PyTuple_GET_ITEM(args, 0)));
            break;
        case OP_PAINT:
            r = add_to(walker, s_paths, one);
            break;
        case OP_BMC:
            r = PyList_Append(marked, marked_none);
            break;
        case OP_BDC:
            /* Properties that hold only a marked-content id (the tokenizer gives None for
             * them; tagged files write one before every run of text): no ActualText and no
             * optional content, so the sequence opens as a BMC's does. Others go to Python. */
            if (n == 2 && PyTuple_GET_ITEM(args, 1) == Py_None
                && PyUnicode_CheckExact(PyTuple_GET_ITEM(args, 0))
                && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(args, 0), "/OC") != 0)
                r = PyList_Append(marked, marked_none);
            else
                r = 1;
            break;
        case OP_EMC:
            r = end_marked(walker, marked, spans);
            break;
        }
        if (r > 0) break;  /* Python interprets this operator */
        if (r < 0) {
            if (!PyErr_ExceptionMatches(swallowed)) goto fail;
            PyErr_Clear();  /* a malformed operand skips its operator, as viewers do */
        }
    }
    PyObject *result = Py_BuildValue("(nNNN)", i, tm, tlm, state);
    return result;
fail:
    Py_DECREF(state);
    Py_DECREF(tm);
    Py_DECREF(tlm);
    return NULL;
}

static PyObject *rules(PyObject *self, PyObject *args)
{
    PyObject *show_function, *errors, *matrix;
    if (!PyArg_ParseTuple(args, "OO!O!", &show_function, &PyTuple_Type, &errors, &PyTuple_Type,
                          &matrix))
        return NULL;
    Py_INCREF(show_function);
    Py_XSETREF(show_fn, show_function);
    Py_INCREF(errors);
    Py_XSETREF(swallowed, errors);
    Py_INCREF(matrix);
    Py_XSETREF(identity, matrix);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"run", (PyCFunction)(void (*)(void))run, METH_FASTCALL,
     "run(walker, ops, i, state, resources, tm, tlm, depth, type3, fonts, stack, marked, "
     "spans) -> (i, tm, tlm, state): ops[i:] up to the first operator left to Python"},
    {"rules", rules, METH_VARARGS,
     "rules(show, swallowed, identity): content's text step, the exceptions its loop "
     "swallows, geometry's identity matrix"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_walkloop", "content._Walker.walk's operator loop in C.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__walkloop(void)
{
    struct { PyObject **slot; const char *text; } names[] = {
        {&s_paths, "paths"}, {&s_hidden, "hidden"}, {&s_leading, "leading"},
        {&s_render, "render"}, {&s_scale, "scale"}, {&s_rise, "rise"}, {&s_ctm, "ctm"},
        {&s_font_key, "font_key"}, {&s_font, "font"}, {&s_text_font, "text_font"},
        {&s_size, "size"}, {&s_copy, "copy"},
    };
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        *names[k].slot = PyUnicode_InternFromString(names[k].text);
        if (*names[k].slot == NULL) return NULL;
    }
    one = PyLong_FromLong(1);
    marked_none = Py_BuildValue("(OO)", Py_None, Py_False);
    if (one == NULL || marked_none == NULL) return NULL;
    return PyModule_Create(&module);
}
