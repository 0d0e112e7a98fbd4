/* The text-showing step of the content walk, in C: content._Walker.show (walk_show, below)
 * and the text assembly of pagetext.py, TextSink.show with _pieces and _usual_adjustment.
 *
 * Both are the hot path of every check: they run once per shown string, and in Python
 * their time went to frames, attribute traffic and small tuples rather than to their
 * arithmetic. The Python methods stay: they are the route of builds without a compiler,
 * and walk_show hands them what it was not written for.
 *
 * show(sink, font, items, origin, em, scale=1.0, key=None, instead=None) does what
 * pagetext.TextSink.show(sink, ...) does, step for step, on the same TextSink object: it
 * reads and writes its parts, size, complete, _last and _by_font. pieces(font, items, width)
 * and usual_adjustment(items) are _pieces and _usual_adjustment, exposed so the tests can
 * compare the two routes piece by piece.
 *
 * count_codes(data, width) counts a page's one- or two-byte codes of one font for
 * pagecontent.FontUse.codes, as Counter(split_codes(data)) would, in the same order.
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
#include <string.h>

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "_walkshared.h"

/* pagetext's TJ_SPACE, GAP_SPACE and LINE_BREAK, as rules() was given them. */
static double tj_space, gap_space, line_break;
static int ruled;

static PyObject *s_parts, *s_size, *s_budget, *s_complete, *s_last, *s_by_font;
static PyObject *s_decode, *s_width, *s_space, *s_newline, *s_empty, *one;

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

/* TextSink.show(sink, font, items, (x, y), em, scale, key, instead), `y` given as the
 * object the caller's origin holds (it is kept in _last as given). Sets *advance to what
 * the method returns; -1 with an error set when it raises. */
static int assemble(PyObject *sink, PyObject *font, PyObject *items, double x, PyObject *y_obj,
                    double em, double scale, PyObject *key, PyObject *instead, double *advance)
{
    Py_ssize_t size, budget;
    *advance = 0.0;
    if (get_ssize(sink, s_size, &size) < 0 || get_ssize(sink, s_budget, &budget) < 0)
        return -1;
    if (size >= budget) return 0;

    PyObject *decode = NULL, *seq = NULL, *body = NULL, *parts = NULL, *last = NULL;
    int status = -1;
    PyObject *complete = PyObject_GetAttr(font, s_complete);
    if (complete == NULL) return -1;
    int is_complete = PyObject_IsTrue(complete);
    Py_DECREF(complete);
    if (is_complete < 0) return -1;
    if (!is_complete && PyObject_SetAttr(sink, s_complete, Py_False) < 0) return -1;
    double width;
    if (get_double(font, s_width, &width) < 0) return -1;
    width = width * scale;
    decode = PyObject_GetAttr(font, s_decode);
    if (decode == NULL) return -1;

    seq = PySequence_Fast(items, "items must be a sequence");
    if (seq == NULL) goto done;
    if (PySequence_Fast_GET_SIZE(seq) == 1 && PyBytes_CheckExact(PySequence_Fast_GET_ITEM(seq, 0))) {
        body = decoded(decode, PySequence_Fast_GET_ITEM(seq, 0));
        if (body == NULL) goto done;
        *advance = (double)PyUnicode_GET_LENGTH(body) * width;
    } else {
        body = pieces_of(decode, seq, width, advance);
        if (body == NULL) goto done;
    }
    if (instead != Py_None) {
        Py_INCREF(instead);
        Py_SETREF(body, instead);
    }
    int empty = PyObject_Not(body);
    if (empty < 0) goto done;
    if (empty) {
        status = 0;
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
    double y = PyFloat_AsDouble(y_obj);
    if (y == -1.0 && PyErr_Occurred()) goto done;
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
    if (set_new(sink, s_size, PyLong_FromSsize_t(size)) < 0) goto done;
    double moved = *advance * em;
    double end = x + moved;
    status = set_new(sink, s_last, Py_BuildValue("(dOd)", end, y_obj, em));
done:
    Py_XDECREF(decode);
    Py_XDECREF(seq);
    Py_XDECREF(body);
    Py_XDECREF(parts);
    Py_XDECREF(last);
    return status;
}

static PyObject *show(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 5 || nargs > 8) {
        PyErr_SetString(PyExc_TypeError,
                        "show(sink, font, items, origin, em, scale=1.0, key=None, instead=None)");
        return NULL;
    }
    if (!check_ruled()) return NULL;
    PyObject *origin = args[3];
    if (!PyTuple_CheckExact(origin) || PyTuple_GET_SIZE(origin) != 2) {
        PyErr_SetString(PyExc_TypeError, "origin must be a pair (x, y)");
        return NULL;
    }
    double x = PyFloat_AsDouble(PyTuple_GET_ITEM(origin, 0));
    if (x == -1.0 && PyErr_Occurred()) return NULL;
    double em = PyFloat_AsDouble(args[4]);
    if (em == -1.0 && PyErr_Occurred()) return NULL;
    double scale = nargs > 5 ? PyFloat_AsDouble(args[5]) : 1.0;
    if (scale == -1.0 && PyErr_Occurred()) return NULL;
    double advance;
    if (assemble(args[0], args[1], args[2], x, PyTuple_GET_ITEM(origin, 1), em, scale,
                 nargs > 6 ? args[6] : Py_None, nargs > 7 ? args[7] : Py_None, &advance) < 0)
        return NULL;
    return PyFloat_FromDouble(advance);
}

/* ---- _Walker.show: one text-showing operator's counts, placement and text ----------------
 *
 * walk_show(walker, items, state, resources, tm, depth, type3, actual) does what
 * content._Walker.show does, in its order, on the same objects: the walker's
 * text_operators, uses, in_annotation, annotation_glyphs, margin_box, hidden and text; the
 * state's font, font_key, text_font, ctm, rise, render, size and scale; the font's
 * code_width, split_codes and subtype; the FontUse counters. The few things it does not
 * know (FontUse, text_font, the invisible render modes, MAX_DEPTH and the Python method
 * itself) are handed over once by walk_rules(). A call whose operands or matrices are not
 * what the walk builds (a tuple of six floats) goes to the Python method before anything
 * is counted, so a damaged file is read alike either way.
 */
static PyObject *FontUse_type, *text_font_fn, *invisible_modes, *python_show;
static long max_depth;
static int walk_ruled;

static PyObject *s_text_operators, *s_uses, *s_in_annotation, *s_annotation_glyphs;
static PyObject *s_margin_box, *s_hidden, *s_text, *s_font, *s_font_key, *s_text_font, *s_ctm;
static PyObject *s_rise, *s_render, *s_size_attr, *s_scale, *s_code_width, *s_split_codes;
static PyObject *s_subtype, *s_Type3, *s_offpage_glyphs, *s_glyphs, *s_invisible_glyphs;
static PyObject *s_actual_text_glyphs, *s_coded, *s_drawn, *s_type3;

static int truth_of(PyObject *obj, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    int r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

static PyObject *walk_show(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError,
                        "walk_show(walker, items, state, resources, tm, depth, type3, actual)");
        return NULL;
    }
    if (!check_ruled()) return NULL;
    if (!walk_ruled) {
        PyErr_SetString(PyExc_RuntimeError, "_textshow.walk_rules() was not called");
        return NULL;
    }
    PyObject *walker = args[0], *items = args[1], *state = args[2], *resources = args[3];
    PyObject *tm = args[4], *depth = args[5], *type3 = args[6], *actual = args[7];
    double t[6], ctm[6];
    PyObject *info = NULL, *ctm_obj = NULL, *raw = NULL, *codes = NULL, *n_obj = NULL;
    PyObject *font_key = NULL, *uses = NULL, *use = NULL, *result = NULL, *text = NULL;
    PyObject *decoding = NULL, *subtype = NULL;

    /* Anything the walk does not build goes to the Python method, before any count. */
    if (!(PyList_CheckExact(items) || PyTuple_CheckExact(items)) || !floats6(tm, t)
        || !(actual == Py_None || PyList_CheckExact(actual)) || !PyBool_Check(type3)
        || !PyLong_CheckExact(depth))
        return PyObject_Vectorcall(python_show, args, nargs, NULL);
    ctm_obj = PyObject_GetAttr(state, s_ctm);
    if (ctm_obj == NULL) return NULL;
    int plain = floats6(ctm_obj, ctm);
    Py_DECREF(ctm_obj);
    if (!plain) return PyObject_Vectorcall(python_show, args, nargs, NULL);

    if (add_to(walker, s_text_operators, one) < 0) return NULL;
    info = PyObject_GetAttr(state, s_font);
    if (info == NULL) return NULL;
    if (info == Py_None || type3 == Py_True) {
        Py_DECREF(info);
        Py_INCREF(tm);
        return tm; /* no font selected (broken file) or inside a glyph procedure: not text */
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    PyObject **objs = PySequence_Fast_ITEMS(items);
    if (count == 1 && PyBytes_CheckExact(objs[0])) {
        raw = objs[0];
        Py_INCREF(raw);
    } else {
        /* b"".join([item for item in items if isinstance(item, bytes)]) */
        Py_ssize_t total = 0;
        for (Py_ssize_t i = 0; i < count; i++)
            if (PyBytes_Check(objs[i])) total += PyBytes_GET_SIZE(objs[i]);
        raw = PyBytes_FromStringAndSize(NULL, total);
        if (raw == NULL) goto done;
        char *at = PyBytes_AS_STRING(raw);
        for (Py_ssize_t i = 0; i < count; i++) {
            if (PyBytes_Check(objs[i])) {
                memcpy(at, PyBytes_AS_STRING(objs[i]), (size_t)PyBytes_GET_SIZE(objs[i]));
                at += PyBytes_GET_SIZE(objs[i]);
            }
        }
    }
    /* One-byte fonts: the bytes are the codes; two-byte fonts: the bytes, a partial last code
     * left out; other codespaces: the font splits them. */
    PyObject *width_obj = PyObject_GetAttr(info, s_code_width);
    if (width_obj == NULL) goto done;
    long code_width = PyLong_Check(width_obj) ? PyLong_AsLong(width_obj) : -1;
    Py_DECREF(width_obj);
    if (code_width == -1 && PyErr_Occurred()) goto done;
    Py_ssize_t n;
    if (code_width == 1) {
        codes = raw;
        Py_INCREF(codes);
        n = PyBytes_GET_SIZE(raw);
    } else if (code_width == 2) {
        Py_ssize_t len = PyBytes_GET_SIZE(raw);
        if (len & 1) codes = PyBytes_FromStringAndSize(PyBytes_AS_STRING(raw), len - 1);
        else {
            codes = raw;
            Py_INCREF(codes);
        }
        if (codes == NULL) goto done;
        n = PyBytes_GET_SIZE(codes) >> 1;
    } else {
        codes = PyObject_CallMethodOneArg(info, s_split_codes, raw);
        if (codes == NULL) goto done;
        n = PyObject_Length(codes);
        if (n < 0) goto done;
    }
    if (!n) {
        Py_INCREF(tm);
        result = tm;
        goto done;
    }
    n_obj = PyLong_FromSsize_t(n);
    if (n_obj == NULL) goto done;
    font_key = PyObject_GetAttr(state, s_font_key);
    uses = font_key == NULL ? NULL : PyObject_GetAttr(walker, s_uses);
    if (uses == NULL) goto done;
    if (!PyDict_Check(uses)) {
        PyErr_SetString(PyExc_TypeError, "_Walker.uses must be a dict");
        goto done;
    }
    use = PyDict_GetItemWithError(uses, font_key);
    if (use != NULL && use != Py_None) {
        Py_INCREF(use);
    } else {
        if (PyErr_Occurred()) goto done;
        PyObject *call_args[2] = {info, font_key};
        PyObject *kwnames = Py_BuildValue("(s)", "font_key");
        if (kwnames == NULL) goto done;
        use = PyObject_Vectorcall(FontUse_type, call_args, 1, kwnames);
        Py_DECREF(kwnames);
        if (use == NULL || PyDict_SetItem(uses, font_key, use) < 0) goto done;
    }
    double a2 = ctm[0], b2 = ctm[1], c2 = ctm[2], d2 = ctm[3], e2 = ctm[4], f2 = ctm[5];
    double e = t[4], f = t[5];
    double rise;
    if (get_double(state, s_rise, &rise) < 0) goto done;
    int annotation = truth_of(walker, s_in_annotation);
    if (annotation < 0) goto done;
    if (annotation) {
        if (add_to(walker, s_annotation_glyphs, n_obj) < 0) goto done;
    } else { /* does the string start on the page (advances are not tracked)? */
        double y0 = f + rise;
        double x = a2 * e + c2 * y0 + e2;
        double y = b2 * e + d2 * y0 + f2;
        PyObject *box = PyObject_GetAttr(walker, s_margin_box);
        if (box == NULL) goto done;
        double edges[4];
        int ok = PyTuple_Check(box) && PyTuple_GET_SIZE(box) == 4;
        for (int i = 0; ok && i < 4; i++) {
            edges[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(box, i));
            if (edges[i] == -1.0 && PyErr_Occurred()) ok = 0;
        }
        Py_DECREF(box);
        if (!ok) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "margin_box: 4 numbers");
            goto done;
        }
        double left = edges[0], bottom = edges[1], right = edges[2], top = edges[3];
        if (!(left <= x && x <= right && bottom <= y && y <= top)) {
            if (add_to(use, s_offpage_glyphs, n_obj) < 0) goto done;
        }
    }
    if (add_to(use, s_glyphs, n_obj) < 0) goto done;
    PyObject *render = PyObject_GetAttr(state, s_render);
    if (render == NULL) goto done;
    int invisible = PySet_Contains(invisible_modes, render);
    Py_DECREF(render);
    if (invisible < 0) goto done;
    if (!invisible) {
        invisible = truth_of(walker, s_hidden);
        if (invisible < 0) goto done;
    }
    if (invisible && add_to(use, s_invisible_glyphs, n_obj) < 0) goto done;
    if (actual != Py_None) {
        if (add_to(use, s_actual_text_glyphs, n_obj) < 0) goto done;
    } else {
        if (add_to(use, s_coded, n_obj) < 0) goto done;
        PyObject *drawn = PyObject_GetAttr(use, s_drawn);
        if (drawn == NULL) goto done;
        int bad = PyList_Check(drawn) ? PyList_Append(drawn, codes)
                                      : (PyErr_SetString(PyExc_TypeError, "drawn: a list"), -1);
        Py_DECREF(drawn);
        if (bad < 0) goto done;
    }
    text = PyObject_GetAttr(walker, s_text);
    if (text == NULL) goto done;
    decoding = PyObject_GetAttr(state, s_text_font);
    if (decoding == NULL) goto done;
    if (decoding == Py_None) {
        Py_SETREF(decoding, PyObject_CallOneArg(text_font_fn, info));
        if (decoding == NULL) goto done;
    }
    Py_INCREF(tm);
    result = tm; /* moved below when the string advances */
    Py_ssize_t size, budget;
    if (get_ssize(text, s_size, &size) < 0 || get_ssize(text, s_budget, &budget) < 0) goto fail;
    if (size < budget) {
        double c = t[2], d = t[3];
        double mc = c * a2 + d * c2, md = c * b2 + d * d2;
        double ox = e * a2 + f * c2 + e2 + rise * mc;
        double oy = e * b2 + f * d2 + f2 + rise * md;
        double em_size;
        if (get_double(state, s_size_attr, &em_size) < 0) goto fail;
        double squares = mc * mc + md * md;
        double em = em_size * pow(squares, 0.5); /* Python's `** 0.5` is pow(), not sqrt() */
        double scale;
        if (get_double(state, s_scale, &scale) < 0) goto fail;
        PyObject *y_obj = PyFloat_FromDouble(oy);
        if (y_obj == NULL) goto fail;
        double advance;
        int bad;
        if (actual == Py_None) {
            PyObject *key = PyLong_FromVoidPtr(use); /* id(use) */
            bad = key == NULL || assemble(text, decoding, items, ox, y_obj, em, scale, key,
                                          Py_None, &advance) < 0;
            Py_XDECREF(key);
        } else {
            Py_ssize_t left = PyList_GET_SIZE(actual);
            PyObject *instead = left ? PyList_GetItem(actual, left - 1) : s_empty;
            Py_INCREF(instead);
            bad = left && PyList_SetSlice(actual, left - 1, left, NULL) < 0; /* actual.pop() */
            bad = bad || assemble(text, decoding, items, ox, y_obj, em, scale, Py_None, instead,
                                  &advance) < 0;
            Py_DECREF(instead);
        }
        Py_DECREF(y_obj);
        if (bad) goto fail;
        if (advance != 0.0 || isnan(advance)) {
            Py_SETREF(result, translate(tm, t, advance * em_size, 0.0));
            if (result == NULL) goto done;
        }
    } else {
        int complete = truth_of(decoding, s_complete);
        if (complete < 0) goto fail;
        if (!complete && PyObject_SetAttr(text, s_complete, Py_False) < 0) goto fail;
    }
    subtype = PyObject_GetAttr(info, s_subtype);
    if (subtype == NULL) goto fail;
    int type3_font = PyUnicode_Check(subtype) && PyUnicode_Compare(subtype, s_Type3) == 0;
    if (type3_font) {
        long at = PyLong_AsLong(depth);
        if (at == -1 && PyErr_Occurred()) goto fail;
        if (at < max_depth) {
            PyObject *call_args[6] = {walker, state, resources, codes, tm, depth};
            PyObject *done_ = PyObject_VectorcallMethod(s_type3, call_args, 6, NULL);
            if (done_ == NULL) goto fail;
            Py_DECREF(done_);
        }
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    Py_XDECREF(info);
    Py_XDECREF(raw);
    Py_XDECREF(codes);
    Py_XDECREF(n_obj);
    Py_XDECREF(font_key);
    Py_XDECREF(uses);
    Py_XDECREF(use);
    Py_XDECREF(text);
    Py_XDECREF(decoding);
    Py_XDECREF(subtype);
    return result;
}

static PyObject *walk_rules(PyObject *self, PyObject *args)
{
    PyObject *use_type, *text_font, *modes, *method;
    long depth;
    if (!PyArg_ParseTuple(args, "OOO!lO", &use_type, &text_font, &PyFrozenSet_Type, &modes,
                          &depth, &method))
        return NULL;
    Py_INCREF(use_type);
    Py_XSETREF(FontUse_type, use_type);
    Py_INCREF(text_font);
    Py_XSETREF(text_font_fn, text_font);
    Py_INCREF(modes);
    Py_XSETREF(invisible_modes, modes);
    Py_INCREF(method);
    Py_XSETREF(python_show, method);
    max_depth = depth;
    walk_ruled = 1;
    Py_RETURN_NONE;
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

/* The i-th code of a string of one- or two-byte (big-endian) codes. */
static inline unsigned long code_at(const unsigned char *bytes, int width, Py_ssize_t i)
{
    return width == 1 ? bytes[i] : ((unsigned long)bytes[2 * i] << 8) | bytes[2 * i + 1];
}

/* count_codes(data, width) -> {code: how often}, in the order the codes first occur: what
 * Counter(split_codes(data)) holds for a codespace of one- or two-byte codes (FontUse.codes),
 * counted in an array over the codes' span instead of a dictionary step per glyph. None
 * for any other width, or data that is no whole number of codes: the caller counts those. */
static PyObject *count_codes(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int width;
    if (!PyArg_ParseTuple(args, "y*i", &view, &width)) return NULL;
    const unsigned char *bytes = view.buf;
    if ((width != 1 && width != 2) || view.len % width != 0) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    Py_ssize_t count = view.len / width;
    if (count == 0) {
        PyBuffer_Release(&view);
        return PyDict_New();
    }
    unsigned long low = 0xFFFF, high = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned long code = code_at(bytes, width, i);
        if (code < low) low = code;
        if (code > high) high = code;
    }
    Py_ssize_t *seen = PyMem_Calloc(high - low + 1, sizeof(Py_ssize_t));
    PyObject *out = seen == NULL ? NULL : PyDict_New();
    if (out == NULL) {
        PyMem_Free(seen);
        PyBuffer_Release(&view);
        return seen == NULL ? PyErr_NoMemory() : NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned long code = code_at(bytes, width, i);
        seen[code - low]++;
    }
    for (Py_ssize_t i = 0; i < count; i++) {  /* in first-occurrence order, as Counter keeps */
        unsigned long code = code_at(bytes, width, i);
        Py_ssize_t times = seen[code - low];
        if (times == 0) continue;  /* put in already */
        seen[code - low] = 0;
        PyObject *key = PyLong_FromUnsignedLong(code);
        PyObject *value = key == NULL ? NULL : PyLong_FromSsize_t(times);
        int failed = value == NULL || PyDict_SetItem(out, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (failed) {
            Py_CLEAR(out);
            break;
        }
    }
    PyMem_Free(seen);
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"show", (PyCFunction)(void (*)(void))show, METH_FASTCALL,
     "show(sink, font, items, origin, em, scale=1.0, key=None, instead=None) -> advance "
     "(pagetext.TextSink.show)"},
    {"pieces", pieces, METH_VARARGS, "pieces(font, items, width) -> (text, advance) (_pieces)"},
    {"usual_adjustment", usual_adjustment, METH_O,
     "usual_adjustment(items) -> float (_usual_adjustment)"},
    {"rules", rules, METH_VARARGS, "rules(tj_space, gap_space, line_break): pagetext's constants"},
    {"walk_show", (PyCFunction)(void (*)(void))walk_show, METH_FASTCALL,
     "walk_show(walker, items, state, resources, tm, depth, type3, actual) -> moved text "
     "matrix (content._Walker.show)"},
    {"count_codes", count_codes, METH_VARARGS,
     "count_codes(data, width) -> {code: count} in first-occurrence order, or None "
     "(pagecontent.FontUse.codes)"},
    {"walk_rules", walk_rules, METH_VARARGS,
     "walk_rules(FontUse, text_font, invisible_modes, max_depth, python_show): content's own"},
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
        {&s_empty, ""}, {&s_text_operators, "text_operators"}, {&s_uses, "uses"},
        {&s_in_annotation, "in_annotation"}, {&s_annotation_glyphs, "annotation_glyphs"},
        {&s_margin_box, "margin_box"}, {&s_hidden, "hidden"}, {&s_text, "text"},
        {&s_font, "font"}, {&s_font_key, "font_key"}, {&s_text_font, "text_font"},
        {&s_ctm, "ctm"}, {&s_rise, "rise"}, {&s_render, "render"}, {&s_size_attr, "size"},
        {&s_scale, "scale"}, {&s_code_width, "code_width"}, {&s_split_codes, "split_codes"},
        {&s_subtype, "subtype"}, {&s_Type3, "Type3"}, {&s_offpage_glyphs, "offpage_glyphs"},
        {&s_glyphs, "glyphs"}, {&s_invisible_glyphs, "invisible_glyphs"},
        {&s_actual_text_glyphs, "actual_text_glyphs"}, {&s_coded, "coded"},
        {&s_drawn, "drawn"}, {&s_type3, "type3"},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        *names[i].slot = PyUnicode_InternFromString(names[i].text);
        if (*names[i].slot == NULL) return NULL;
    }
    one = PyLong_FromLong(1);
    if (one == NULL) return NULL;
    return PyModule_Create(&module);
}
