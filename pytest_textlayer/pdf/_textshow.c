/* The text assembly of pagetext.py, in C: TextSink.show with _pieces and _usual_adjustment.
 *
 * show(sink, font, items, origin, em, scale=1.0, key=None, instead=None) does what
 * pagetext.TextSink.show(sink, ...) does, step for step, on the same TextSink object: it
 * reads and writes its parts, size, complete, _last and _by_font. pieces(font, items, width)
 * and usual_adjustment(items) are _pieces and _usual_adjustment, exposed so the tests can
 * compare the two routes piece by piece.
 *
 * Every string is decoded by the font's own `decode` callable, so the decodings stay
 * defined once, in Python. The thresholds (TJ_SPACE, GAP_SPACE, LINE_BREAK) are set once by
 * rules(), called by pagetext.py with its constants: they too are defined once.
 *
 * The arithmetic is the Python's, in the same order, on doubles: word breaks hang on float
 * comparisons, so the operations are written one per statement as the Python writes them,
 * and the compiler is told not to fuse a multiply and an add (FMA rounds once, Python
 * twice). The sort that finds the usual adjustment is Python's own list sort (NaN shifts
 * sort as Python sorts them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* pagetext's TJ_SPACE, GAP_SPACE and LINE_BREAK, as rules() was given them. */
static double tj_space, gap_space, line_break;
static int ruled;

static PyObject *s_parts, *s_size, *s_budget, *s_complete, *s_last, *s_by_font;
static PyObject *s_decode, *s_width, *s_space, *s_newline, *s_empty;

/* An item of a shown array, read once: a string (its decoded text comes later), a number
 * (float(item) succeeded) or nothing (float(item) raised TypeError or ValueError: skipped). */
enum { I_BYTES, I_NUMBER, I_SKIP };

typedef struct {
    int kind;
    double value; /* I_NUMBER: float(item) */
    PyObject *number; /* I_NUMBER: the float object, a new reference */
} Item;

/* float(item) as Python's float() reads it; 0 when it raised TypeError or ValueError (the
 * Python route's `except (TypeError, ValueError): continue`), -1 on any other error. */
static int read_number(PyObject *item, Item *out)
{
    PyObject *f = PyNumber_Float(item);
    if (f == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            out->kind = I_SKIP;
            return 0;
        }
        return -1;
    }
    out->kind = I_NUMBER;
    out->value = PyFloat_AS_DOUBLE(f);
    out->number = f;
    return 0;
}

/* Does `text` (a str) end with U+0020 (or, with `newline`, U+000A)? */
static int ends_with_space(PyObject *text, int newline)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (n == 0) return 0;
    Py_UCS4 c = PyUnicode_READ_CHAR(text, n - 1);
    return c == ' ' || (newline && c == '\n');
}

/* _usual_adjustment over the items read by read_items: *usual is set, -1 on error. */
static int usual_of(PyObject **objs, Item *items, Py_ssize_t n, double *usual)
{
    Py_ssize_t shifts = 0, strings = 0, single = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (items[i].kind == I_BYTES) {
            strings++;
            single += PyBytes_GET_SIZE(objs[i]) <= 2; /* one code of a one- or two-byte font */
        } else if (items[i].kind == I_NUMBER) {
            shifts++;
        }
    }
    *usual = 0.0;
    if (shifts < 4 || single * 5 < strings * 4 || shifts * 2 < strings) return 0;
    PyObject *sorted = PyList_New(shifts);
    if (sorted == NULL) return -1;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (items[i].kind == I_NUMBER) {
            Py_INCREF(items[i].number);
            PyList_SET_ITEM(sorted, k++, items[i].number);
        }
    }
    if (PyList_Sort(sorted) < 0) {
        Py_DECREF(sorted);
        return -1;
    }
    double middle = PyFloat_AS_DOUBLE(PyList_GET_ITEM(sorted, shifts / 2));
    Py_DECREF(sorted);
    *usual = middle < 0 ? middle : 0.0;
    return 0;
}

/* Reads the items of a shown array (isinstance(item, bytes), else float(item)) into `out`. */
static int read_items(PyObject **objs, Py_ssize_t n, Item *out)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i].number = NULL;
        if (PyBytes_Check(objs[i])) {
            out[i].kind = I_BYTES;
        } else if (read_number(objs[i], &out[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static void release_items(Item *items, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(items[i].number);
}

/* A str from decode(raw), or NULL with an error set. */
static PyObject *decoded(PyObject *decode, PyObject *raw)
{
    PyObject *text = PyObject_CallOneArg(decode, raw);
    if (text != NULL && !PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "decode gave %.100s, not str", Py_TYPE(text)->tp_name);
        Py_CLEAR(text);
    }
    return text;
}

/* _pieces(font, items, width): a TJ array's text and advance. `seq` is a list or tuple. */
static PyObject *pieces_of(PyObject *decode, PyObject *seq, double width, double *advance)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **objs = PySequence_Fast_ITEMS(seq);
    Item stack[64];
    Item *items = n <= 64 ? stack : PyMem_Malloc(sizeof(Item) * (size_t)n);
    PyObject *pieces = NULL, *text = NULL, *body = NULL;
    if (items == NULL) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) items[i].number = NULL;
    double usual;
    if (read_items(objs, n, items) < 0 || usual_of(objs, items, n, &usual) < 0) goto done;
    pieces = PyList_New(0);
    if (pieces == NULL) goto done;
    double moved = 0.0;
    PyObject *last = NULL; /* pieces[-1], borrowed from the list */
    for (Py_ssize_t i = 0; i < n; i++) {
        if (items[i].kind == I_BYTES) {
            text = decoded(decode, objs[i]);
            if (text == NULL || PyList_Append(pieces, text) < 0) goto done;
            moved += (double)PyUnicode_GET_LENGTH(text) * width;
            last = text;
            Py_CLEAR(text);
        } else if (items[i].kind == I_NUMBER) {
            double shift = items[i].value;
            if (shift - usual < -tj_space && last != NULL && !ends_with_space(last, 0)) {
                if (PyList_Append(pieces, s_space) < 0) goto done;
                last = s_space;
            }
            moved -= shift / 1000;
        }
    }
    body = PyUnicode_Join(s_empty, pieces);
    *advance = moved;
done:
    Py_XDECREF(text);
    Py_XDECREF(pieces);
    release_items(items, n);
    if (items != stack) PyMem_Free(items);
    return body;
}

static int check_ruled(void)
{
    if (!ruled) PyErr_SetString(PyExc_RuntimeError, "_textshow.rules() was not called");
    return ruled;
}

static int get_double(PyObject *obj, PyObject *name, double *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return *out == -1.0 && PyErr_Occurred() ? -1 : 0;
}

static int get_ssize(PyObject *obj, PyObject *name, Py_ssize_t *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    *out = PyLong_AsSsize_t(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int set_ssize(PyObject *obj, PyObject *name, Py_ssize_t value)
{
    PyObject *v = PyLong_FromSsize_t(value);
    if (v == NULL) return -1;
    int r = PyObject_SetAttr(obj, name, v);
    Py_DECREF(v);
    return r;
}

/* TextSink._add: a space or line break is not added after another. */
static int add(PyObject *parts, Py_ssize_t *size, PyObject *text)
{
    Py_ssize_t n = PyList_GET_SIZE(parts);
    if (n && (text == s_space || text == s_newline)
        && PyUnicode_Check(PyList_GET_ITEM(parts, n - 1))
        && ends_with_space(PyList_GET_ITEM(parts, n - 1), 1))
        return 0;
    if (PyList_Append(parts, text) < 0) return -1;
    *size += PyUnicode_GET_LENGTH(text);
    return 0;
}

static PyObject *show(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 5 || nargs > 8) {
        PyErr_SetString(PyExc_TypeError,
                        "show(sink, font, items, origin, em, scale=1.0, key=None, instead=None)");
        return NULL;
    }
    if (!check_ruled()) return NULL;
    PyObject *sink = args[0], *font = args[1], *items = args[2], *origin = args[3];
    PyObject *key = nargs > 6 ? args[6] : Py_None, *instead = nargs > 7 ? args[7] : Py_None;
    double em = PyFloat_AsDouble(args[4]);
    if (em == -1.0 && PyErr_Occurred()) return NULL;
    double scale = nargs > 5 ? PyFloat_AsDouble(args[5]) : 1.0;
    if (scale == -1.0 && PyErr_Occurred()) return NULL;

    Py_ssize_t size, budget;
    if (get_ssize(sink, s_size, &size) < 0 || get_ssize(sink, s_budget, &budget) < 0)
        return NULL;
    if (size >= budget) return PyFloat_FromDouble(0.0);

    PyObject *decode = NULL, *seq = NULL, *body = NULL, *parts = NULL, *last = NULL;
    PyObject *result = NULL;
    PyObject *complete = PyObject_GetAttr(font, s_complete);
    if (complete == NULL) return NULL;
    int is_complete = PyObject_IsTrue(complete);
    Py_DECREF(complete);
    if (is_complete < 0) return NULL;
    if (!is_complete && PyObject_SetAttr(sink, s_complete, Py_False) < 0) return NULL;
    double width;
    if (get_double(font, s_width, &width) < 0) return NULL;
    width = width * scale;
    decode = PyObject_GetAttr(font, s_decode);
    if (decode == NULL) return NULL;

    double advance;
    seq = PySequence_Fast(items, "items must be a sequence");
    if (seq == NULL) goto done;
    if (PySequence_Fast_GET_SIZE(seq) == 1 && PyBytes_CheckExact(PySequence_Fast_GET_ITEM(seq, 0))) {
        body = decoded(decode, PySequence_Fast_GET_ITEM(seq, 0));
        if (body == NULL) goto done;
        advance = (double)PyUnicode_GET_LENGTH(body) * width;
    } else {
        body = pieces_of(decode, seq, width, &advance);
        if (body == NULL) goto done;
    }
    if (instead != Py_None) {
        Py_INCREF(instead);
        Py_SETREF(body, instead);
    }
    int empty = PyObject_Not(body);
    if (empty < 0) goto done;
    if (empty) {
        result = PyFloat_FromDouble(advance);
        goto done;
    }
    if (!PyUnicode_Check(body)) {
        PyErr_SetString(PyExc_TypeError, "the text shown must be a str");
        goto done;
    }
    if (key != Py_None) {
        PyObject *by_font = PyObject_GetAttr(sink, s_by_font);
        if (by_font == NULL) goto done;
        PyObject *list = PyDict_GetItemWithError(by_font, key);
        int bad = 0;
        if (list == NULL) {
            if (PyErr_Occurred()) bad = 1;
            else if ((list = PyList_New(0)) == NULL) bad = 1;
            else {
                bad = PyDict_SetItem(by_font, key, list) < 0;
                Py_DECREF(list); /* the dictionary holds it */
            }
        }
        bad = bad || PyList_Append(list, body) < 0;
        Py_DECREF(by_font);
        if (bad) goto done;
    }
    PyObject *x_obj, *y_obj;
    if (PyTuple_CheckExact(origin) && PyTuple_GET_SIZE(origin) == 2) {
        x_obj = PyTuple_GET_ITEM(origin, 0);
        y_obj = PyTuple_GET_ITEM(origin, 1);
    } else {
        PyErr_SetString(PyExc_TypeError, "origin must be a pair (x, y)");
        goto done;
    }
    double x = PyFloat_AsDouble(x_obj), y = PyFloat_AsDouble(y_obj);
    if (PyErr_Occurred()) goto done;
    em = fabs(em);
    if (em == 0.0) em = 1.0; /* `abs(em) or 1.0` */
    parts = PyObject_GetAttr(sink, s_parts);
    if (parts == NULL) goto done;
    if (!PyList_Check(parts)) {
        PyErr_SetString(PyExc_TypeError, "TextSink.parts must be a list");
        goto done;
    }
    last = PyObject_GetAttr(sink, s_last);
    if (last == NULL) goto done;
    if (last != Py_None) {
        if (!PyTuple_Check(last) || PyTuple_GET_SIZE(last) != 3) {
            PyErr_SetString(PyExc_TypeError, "TextSink._last must be (end, y, em)");
            goto done;
        }
        double end = PyFloat_AsDouble(PyTuple_GET_ITEM(last, 0));
        double last_y = PyFloat_AsDouble(PyTuple_GET_ITEM(last, 1));
        double last_em = PyFloat_AsDouble(PyTuple_GET_ITEM(last, 2));
        if (PyErr_Occurred()) goto done;
        double step = last_em > em ? last_em : em; /* max(em, last_em): the first unless less */
        if (fabs(y - last_y) > line_break * step) {
            if (add(parts, &size, s_newline) < 0) goto done;
        } else {
            double gap = x - end;
            double limit = gap_space * step;
            double back = end - 2 * step;
            if ((gap > limit || x < back) && PyUnicode_READ_CHAR(body, 0) != ' ') {
                if (add(parts, &size, s_space) < 0) goto done;
            }
        }
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(body);
    Py_UCS4 first = PyUnicode_READ_CHAR(body, 0);
    if (length == 1 && (first == ' ' || first == '\n')) {
        if (add(parts, &size, first == ' ' ? s_space : s_newline) < 0) goto done;
    } else {
        if (PyList_Append(parts, body) < 0) goto done;
        size += length;
    }
    if (set_ssize(sink, s_size, size) < 0) goto done;
    double moved = advance * em;
    double end = x + moved;
    PyObject *new_last = Py_BuildValue("(dOd)", end, y_obj, em);
    if (new_last == NULL) goto done;
    int bad = PyObject_SetAttr(sink, s_last, new_last);
    Py_DECREF(new_last);
    if (bad < 0) goto done;
    result = PyFloat_FromDouble(advance);
done:
    Py_XDECREF(decode);
    Py_XDECREF(seq);
    Py_XDECREF(body);
    Py_XDECREF(parts);
    Py_XDECREF(last);
    return result;
}

static PyObject *pieces(PyObject *self, PyObject *args)
{
    PyObject *font, *items;
    double width, advance = 0.0;
    if (!PyArg_ParseTuple(args, "OOd", &font, &items, &width) || !check_ruled()) return NULL;
    PyObject *decode = PyObject_GetAttr(font, s_decode);
    if (decode == NULL) return NULL;
    PyObject *seq = PySequence_Fast(items, "items must be a sequence");
    PyObject *body = seq == NULL ? NULL : pieces_of(decode, seq, width, &advance);
    Py_DECREF(decode);
    Py_XDECREF(seq);
    if (body == NULL) return NULL;
    PyObject *result = Py_BuildValue("(Nd)", body, advance);
    return result;
}

static PyObject *usual_adjustment(PyObject *self, PyObject *items)
{
    PyObject *seq = PySequence_Fast(items, "items must be a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Item *read = PyMem_Malloc(sizeof(Item) * (size_t)(n ? n : 1));
    double usual = 0.0;
    int bad = read == NULL;
    if (read != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) read[i].number = NULL;
        bad = read_items(PySequence_Fast_ITEMS(seq), n, read) < 0
              || usual_of(PySequence_Fast_ITEMS(seq), read, n, &usual) < 0;
        release_items(read, n);
        PyMem_Free(read);
    }
    Py_DECREF(seq);
    if (bad) return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    return PyFloat_FromDouble(usual);
}

static PyObject *rules(PyObject *self, PyObject *args)
{
    if (!PyArg_ParseTuple(args, "ddd", &tj_space, &gap_space, &line_break)) return NULL;
    ruled = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"show", (PyCFunction)(void (*)(void))show, METH_FASTCALL,
     "show(sink, font, items, origin, em, scale=1.0, key=None, instead=None) -> advance "
     "(pagetext.TextSink.show)"},
    {"pieces", pieces, METH_VARARGS, "pieces(font, items, width) -> (text, advance) (_pieces)"},
    {"usual_adjustment", usual_adjustment, METH_O,
     "usual_adjustment(items) -> float (_usual_adjustment)"},
    {"rules", rules, METH_VARARGS, "rules(tj_space, gap_space, line_break): pagetext's constants"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_textshow", "pagetext's text assembly in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__textshow(void)
{
    struct { PyObject **slot; const char *text; } names[] = {
        {&s_parts, "parts"}, {&s_size, "size"}, {&s_budget, "budget"},
        {&s_complete, "complete"}, {&s_last, "_last"}, {&s_by_font, "_by_font"},
        {&s_decode, "decode"}, {&s_width, "width"}, {&s_space, " "}, {&s_newline, "\n"},
        {&s_empty, ""},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        *names[i].slot = PyUnicode_InternFromString(names[i].text);
        if (*names[i].slot == NULL) return NULL;
    }
    return PyModule_Create(&module);
}
