/* The content-stream tokenizer of contentstream.py, in C.
 *
 * scan(data, operands) gives what contentstream.tokenize_python(data) gives
 * for the streams it is sure of, as a pair: the walked instructions (a list of
 * (operator, operands) tuples) and the operand spans of skipped operators that
 * hold brackets (the caller checks that qpdf can parse them). It returns None
 * for any stream it is not sure of (a NUL byte, a character no
 * token accepts, an unknown operator, unbalanced brackets, a number that is no
 * plain decimal): the Python tokenizer then decides, so both routes always
 * agree. Operands are read as the Python route reads them: numbers, names, plain
 * strings and TJ arrays by its patterns (numbers as floats); marked-content ids
 * as its _MCID_ONLY; the spans it hands to qpdf's parser (_parsed), when they
 * hold only names, numbers, strings with the common escapes and arrays, as qpdf
 * reads them (integers as int). Every other span goes to the Python callable
 * `operands(span, op)`, the function the Python route uses. Comments are dropped first, as
 * the Python route drops them (strip_comments).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

enum { T_NUM, T_NAME, T_STR, T_HEX, T_OTHER };

typedef struct {
    Py_ssize_t start, end; /* the token's bytes */
    int kind;
    /* 1: a string without backslash or CR, a name of plain ASCII; 2: a string whose escapes
     * qpdf_string decodes; 0: neither */
    int simple;
} Token;

/* Operator classes. */
enum { OP_SKIP = 0, OP_NONE, OP_NUMERIC, OP_PARSED };

typedef struct {
    const char *name;
    int cls;
} OpSpec;

/* KNOWN of contentstream.py; the class says what the walk reads of the operands. */
static OpSpec OPS[] = {
    {"q", OP_NONE}, {"Q", OP_NONE}, {"BT", OP_NONE}, {"ET", OP_NONE}, {"T*", OP_NONE},
    {"EMC", OP_NONE}, {"S", OP_NONE}, {"s", OP_NONE}, {"f", OP_NONE}, {"F", OP_NONE},
    {"f*", OP_NONE}, {"B", OP_NONE}, {"B*", OP_NONE}, {"b", OP_NONE}, {"b*", OP_NONE},
    {"sh", OP_NONE},
    {"cm", OP_NUMERIC}, {"Tm", OP_NUMERIC}, {"Td", OP_NUMERIC}, {"TD", OP_NUMERIC},
    {"TL", OP_NUMERIC}, {"Tz", OP_NUMERIC}, {"Ts", OP_NUMERIC}, {"Tr", OP_NUMERIC},
    {"Tf", OP_PARSED}, {"Tj", OP_PARSED}, {"TJ", OP_PARSED}, {"'", OP_PARSED},
    {"\"", OP_PARSED}, {"Do", OP_PARSED}, {"BDC", OP_PARSED}, {"BMC", OP_PARSED},
    {"BX", OP_SKIP}, {"c", OP_SKIP}, {"CS", OP_SKIP}, {"cs", OP_SKIP}, {"d", OP_SKIP},
    {"d0", OP_SKIP}, {"d1", OP_SKIP}, {"DP", OP_SKIP}, {"EX", OP_SKIP}, {"G", OP_SKIP},
    {"g", OP_SKIP}, {"gs", OP_SKIP}, {"h", OP_SKIP}, {"i", OP_SKIP}, {"j", OP_SKIP},
    {"J", OP_SKIP}, {"K", OP_SKIP}, {"k", OP_SKIP}, {"l", OP_SKIP}, {"m", OP_SKIP},
    {"M", OP_SKIP}, {"MP", OP_SKIP}, {"n", OP_SKIP}, {"re", OP_SKIP}, {"RG", OP_SKIP},
    {"rg", OP_SKIP}, {"ri", OP_SKIP}, {"SC", OP_SKIP}, {"sc", OP_SKIP}, {"SCN", OP_SKIP},
    {"scn", OP_SKIP}, {"Tc", OP_SKIP}, {"Tw", OP_SKIP}, {"v", OP_SKIP}, {"w", OP_SKIP},
    {"W", OP_SKIP}, {"W*", OP_SKIP}, {"y", OP_SKIP},
};
#define N_OPS (sizeof(OPS) / sizeof(OPS[0]))
static size_t op_len[N_OPS];

static int by_first_byte(const void *a, const void *b)
{
    return (unsigned char)((const OpSpec *)a)->name[0] - (unsigned char)((const OpSpec *)b)->name[0];
}

static PyObject *op_bytes[N_OPS]; /* one bytes object per operator, shared */
static PyObject *empty_tuple;

static unsigned char is_ws[256], is_delim[256], is_numchar[256], is_name_plain[256], is_hex[256];
static signed char op_first[256]; /* index of the first operator of OPS by first byte, or -1 */

static void init_tables(void)
{
    const char *ws = "\x00\t\n\x0c\r ";
    for (int i = 0; i < 6; i++) is_ws[(unsigned char)ws[i]] = 1;
    /* and the vertical tab, at which qpdf's tokenizer ends a word (PDF's white space has
     * none): one outside a string is a byte no token accepts, and the scan declines */
    const char *delim = "()<>[]{}/%\v";
    for (const char *p = delim; *p; p++) is_delim[(unsigned char)*p] = 1;
    const char *num = "+-.0123456789";
    for (const char *p = num; *p; p++) is_numchar[(unsigned char)*p] = 1;
    const char *hex = "0123456789abcdefABCDEF";
    for (const char *p = hex; *p; p++) is_hex[(unsigned char)*p] = 1;
    for (int i = 0; i < 6; i++) is_hex[(unsigned char)ws[i]] = 1; /* spaces inside <...> */
    memset(op_first, -1, sizeof(op_first));
    qsort(OPS, N_OPS, sizeof(OpSpec), by_first_byte);
    for (int i = (int)N_OPS - 1; i >= 0; i--) {
        op_len[i] = strlen(OPS[i].name);
        op_first[(unsigned char)OPS[i].name[0]] = (signed char)i;
    }
    /* contentstream._NAME_NUMBERS: a name's body without # escapes, ASCII, no delimiter */
    for (int c = 0x21; c < 0x7f; c++)
        is_name_plain[c] = !is_delim[c] && c != '#';
}

#define REGULAR(c) (!is_ws[(unsigned char)(c)] && !is_delim[(unsigned char)(c)])

static int find_op(const char *s, Py_ssize_t len)
{
    if (len > 3) return -1;
    for (int i = op_first[(unsigned char)s[0]]; i >= 0 && i < (int)N_OPS; i++) {
        if (OPS[i].name[0] != s[0]) break; /* OPS sorted by first byte at init */
        if ((Py_ssize_t)op_len[i] == len && memcmp(OPS[i].name, s, len) == 0) return i;
    }
    return -1;
}

/* A plain decimal ([+-]?(digits[.digits*]|.digits)) as float() reads it; NULL (no error
 * set) when the token is not one. */
static PyObject *number(const char *s, Py_ssize_t len)
{
    Py_ssize_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        neg = s[i] == '-';
        i++;
    }
    Py_ssize_t int_digits = 0, frac_digits = 0;
    int point = 0;
    double mant = 0.0;
    int exact = 1; /* every digit fits a 53-bit mantissa */
    for (; i < len; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (point) frac_digits++;
            else int_digits++;
            if (int_digits + frac_digits > 15) exact = 0;
            else mant = mant * 10.0 + (c - '0');
        } else if (c == '.' && !point) {
            point = 1;
        } else {
            return NULL;
        }
    }
    if (int_digits == 0 && frac_digits == 0) return NULL;
    if (exact && frac_digits <= 22) {
        static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
            1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        /* an exact mantissa divided by an exact power of ten: correctly rounded */
        double v = frac_digits ? mant / pow10[frac_digits] : mant;
        return PyFloat_FromDouble(neg ? -v : v);
    }
    char buf[64];
    if (len >= (Py_ssize_t)sizeof(buf)) return NULL;
    memcpy(buf, s, len);
    buf[len] = 0;
    double v = PyOS_string_to_double(buf, NULL, NULL);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return NULL;
    }
    return PyFloat_FromDouble(v);
}

/* The bytes of a hex string token `<...>` (whitespace skipped, an odd last digit padded). */
static PyObject *unhex(const char *s, Py_ssize_t len)
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, len / 2 + 1);
    if (out == NULL) return NULL;
    char *o = PyBytes_AS_STRING(out);
    Py_ssize_t n = 0;
    int half = -1;
    for (Py_ssize_t i = 1; i < len - 1; i++) {
        unsigned char c = (unsigned char)s[i];
        int v;
        if (c >= '0' && c <= '9') v = c - '0';
        else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
        else continue; /* whitespace */
        if (half < 0) half = v;
        else {
            o[n++] = (char)(half * 16 + v);
            half = -1;
        }
    }
    if (half >= 0) o[n++] = (char)(half * 16);
    if (_PyBytes_Resize(&out, n) < 0) return NULL;
    return out;
}


/* Is the escape after a backslash one qpdf_string decodes? (2: yes, 0: the Python route) */
static int escape_ok(const char *s, Py_ssize_t avail)
{
    char c = s[0];
    if (strchr("nrtbf()\\\n", c) != NULL && c != 0) return 2;
    if (c >= '0' && c <= '7') {
        int v = 0;
        for (Py_ssize_t i = 0; i < 3 && i < avail && s[i] >= '0' && s[i] <= '7'; i++)
            v = v * 8 + (s[i] - '0');
        return v <= 255 ? 2 : 0;
    }
    return 0;
}

/* A literal string token's bytes as qpdf reads them, for tokens escape_ok accepted. */
static PyObject *qpdf_string(const char *d, Token *t)
{
    Py_ssize_t a = t->start + 1, b = t->end - 1;
    PyObject *out = PyBytes_FromStringAndSize(NULL, b - a);
    if (out == NULL) return NULL;
    char *o = PyBytes_AS_STRING(out);
    Py_ssize_t n = 0;
    for (Py_ssize_t i = a; i < b; i++) {
        char c = d[i];
        if (c != '\\') {
            o[n++] = c;
            continue;
        }
        c = d[++i];
        switch (c) {
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case '\n': break; /* a line continued */
        default:
            if (c >= '0' && c <= '7') {
                int v = 0;
                for (int k = 0; k < 3 && i < b && d[i] >= '0' && d[i] <= '7'; k++, i++)
                    v = v * 8 + (d[i] - '0');
                i--;
                o[n++] = (char)v;
            } else {
                o[n++] = c; /* ( ) \ */
            }
        }
    }
    if (_PyBytes_Resize(&out, n) < 0) return NULL;
    return out;
}

/* Token buffer, grown as needed. */
typedef struct {
    Token *t;
    Py_ssize_t n, cap;
} Tokens;

static int push(Tokens *tk, Py_ssize_t start, Py_ssize_t end, int kind, int simple)
{
    if (tk->n == tk->cap) {
        Py_ssize_t cap = tk->cap ? tk->cap * 2 : 64;
        Token *t = PyMem_Realloc(tk->t, cap * sizeof(Token));
        if (t == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        tk->t = t;
        tk->cap = cap;
    }
    Token *t = &tk->t[tk->n++];
    t->start = start;
    t->end = end;
    t->kind = kind;
    t->simple = simple;
    return 0;
}

/* The operands of name-and-numbers or numbers-only spans; NULL with no error when the span is
 * neither, NULL with an error on failure. *bad is set when a number is not plain (the Python
 * route decides). */
static PyObject *name_numbers(const char *d, Token *t, Py_ssize_t n, int *bad)
{
    Py_ssize_t first = 0;
    if (n > 0 && t[0].kind == T_NAME) {
        if (!t[0].simple) return NULL;
        first = 1;
    }
    for (Py_ssize_t i = first; i < n; i++)
        if (t[i].kind != T_NUM) return NULL;
    if (n == 0) {
        Py_INCREF(empty_tuple);
        return empty_tuple;
    }
    PyObject *tup = PyTuple_New(n);
    if (tup == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v;
        if (i < first) {
            v = PyUnicode_DecodeASCII(d + t[i].start, t[i].end - t[i].start, NULL);
        } else {
            v = number(d + t[i].start, t[i].end - t[i].start);
            if (v == NULL && !PyErr_Occurred()) {
                *bad = 1;
                Py_DECREF(tup);
                return NULL;
            }
        }
        if (v == NULL) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, v);
    }
    return tup;
}

static PyObject *string_item(const char *d, Token *t)
{
    if (t->kind == T_STR)
        return PyBytes_FromStringAndSize(d + t->start + 1, t->end - t->start - 2);
    return unhex(d + t->start, t->end - t->start);
}

/* A TJ array of simple strings, hex strings and plain numbers; NULL with no error otherwise. */
static PyObject *plain_array(const char *d, Token *t, Py_ssize_t n)
{
    if (n < 2 || t[0].kind != T_OTHER || d[t[0].start] != '[' || t[n - 1].kind != T_OTHER
        || d[t[n - 1].start] != ']')
        return NULL;
    for (Py_ssize_t i = 1; i < n - 1; i++) {
        if (t[i].kind == T_OTHER || t[i].kind == T_NAME || t[i].simple != 1) return NULL;
    }
    PyObject *list = PyList_New(n - 2);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 1; i < n - 1; i++) {
        PyObject *v = t[i].kind == T_NUM ? number(d + t[i].start, t[i].end - t[i].start)
                                         : string_item(d, &t[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL; /* a plain number always parses: only errors get here */
        }
        PyList_SET_ITEM(list, i - 1, v);
    }
    PyObject *tup = PyTuple_Pack(1, list);
    Py_DECREF(list);
    return tup;
}

static int token_is(const char *d, Token *t, const char *text)
{
    Py_ssize_t len = (Py_ssize_t)strlen(text);
    return t->end - t->start == len && memcmp(d + t->start, text, len) == 0;
}

/* contentstream._MCID_ONLY: a BDC's tag and properties holding a marked-content id (and a
 * language) only; the tag, or NULL (no error) when the span is not that. */
static PyObject *mcid_only(const char *d, Token *t, Py_ssize_t n)
{
    if (n != 5 && n != 7) return NULL;
    if (t[0].kind != T_NAME || t[0].end - t[0].start < 2 || token_is(d, &t[0], "/OC"))
        return NULL;
    for (Py_ssize_t i = t[0].start + 1; i < t[0].end; i++) {
        char c = d[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
              || c == '_' || c == '.' || c == '-'))
            return NULL;
    }
    if (t[1].kind != T_OTHER || !token_is(d, &t[1], "<<") || t[2].kind != T_NAME
        || !token_is(d, &t[2], "/MCID") || t[3].kind != T_NUM)
        return NULL;
    for (Py_ssize_t i = t[3].start; i < t[3].end; i++)
        if (d[i] < '0' || d[i] > '9') return NULL;
    if (n == 7 && (t[4].kind != T_NAME || !token_is(d, &t[4], "/Lang") || t[5].kind != T_STR
                   || t[5].simple != 1))
        return NULL;
    if (t[n - 1].kind != T_OTHER || !token_is(d, &t[n - 1], ">>")) return NULL;
    return PyUnicode_DecodeASCII(d + t[0].start, t[0].end - t[0].start, NULL);
}

/* One operand as qpdf's parser and contentstream.native give it (integers as int); NULL
 * with no error when it is one the Python route must read. */
static PyObject *qpdf_value(const char *d, Token *t, Py_ssize_t n, Py_ssize_t *i)
{
    Token *k = &t[*i];
    const char *s = d + k->start;
    Py_ssize_t len = k->end - k->start;
    if (k->kind == T_NAME) {
        if (k->simple != 1) return NULL;
        return PyUnicode_DecodeASCII(s, len, NULL);
    }
    if (k->kind == T_HEX) return unhex(s, len);
    if (k->kind == T_STR) return k->simple ? qpdf_string(d, k) : NULL;
    if (k->kind == T_NUM) {
        Py_ssize_t j = (s[0] == '+' || s[0] == '-') ? 1 : 0;
        int digits = 1;
        for (Py_ssize_t m = j; m < len; m++) digits &= s[m] >= '0' && s[m] <= '9';
        if (!digits) return number(s, len);
        if (len - j == 0 || len - j > 15) return NULL;
        long long v = 0;
        for (Py_ssize_t m = j; m < len; m++) v = v * 10 + (s[m] - '0');
        return PyLong_FromLongLong(s[0] == '-' ? -v : v);
    }
    if (s[0] != '[') return NULL; /* ] << >> true false null, comments */
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    for (++*i; *i < n; ++*i) {
        if (t[*i].kind == T_OTHER && d[t[*i].start] == ']') return list;
        PyObject *v = qpdf_value(d, t, n, i);
        if (v == NULL || PyList_Append(list, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(v);
    }
    Py_DECREF(list);
    return NULL; /* unbalanced */
}

/* contentstream._parsed(span) for spans of names, numbers, strings and arrays. */
static PyObject *qpdf_operands(const char *d, Token *t, Py_ssize_t n)
{
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = qpdf_value(d, t, n, &i);
        if (v == NULL || PyList_Append(list, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(v);
    }
    PyObject *tup = PyList_AsTuple(list);
    Py_DECREF(list);
    return tup;
}

/* operands(span, op): the Python route's reading of one span. */
static PyObject *call_python(const char *d, Py_ssize_t start, Py_ssize_t end, int op,
                             PyObject *fallback)
{
    PyObject *span = PyBytes_FromStringAndSize(d + start, end - start);
    if (span == NULL) return NULL;
    PyObject *r = PyObject_CallFunctionObjArgs(fallback, span, op_bytes[op], NULL);
    Py_DECREF(span);
    return r;
}

/* The operands of a walked operator, or NULL with an error; *bad: the Python route decides. */
static PyObject *walked_operands(const char *d, Py_ssize_t span_start, Py_ssize_t span_end,
                                 Token *t, Py_ssize_t n, int op, PyObject *fallback, int *bad)
{
    int cls = OPS[op].cls;
    if (cls == OP_NONE) {
        Py_INCREF(empty_tuple);
        return empty_tuple;
    }
    if (n < 0) { /* NUL bytes between the operands (see scan) */
        if (cls == OP_NUMERIC) {
            *bad = 1;
            return NULL;
        }
        return call_python(d, span_start, span_end, op, fallback);
    }
    if (cls == OP_NUMERIC) {
        for (Py_ssize_t i = 0; i < n; i++) {
            if (t[i].kind != T_NUM) {
                *bad = 1;
                return NULL;
            }
        }
        PyObject *r = name_numbers(d, t, n, bad);
        if (r == NULL && !PyErr_Occurred()) *bad = 1;
        return r;
    }
    const char *name = OPS[op].name;
    PyObject *r = NULL;
    if ((name[0] == 'T' && name[1] == 'j') || name[0] == '\'') {
        if (n == 1 && (t[0].kind == T_STR || t[0].kind == T_HEX) && t[0].simple == 1) {
            PyObject *s = string_item(d, &t[0]);
            if (s == NULL) return NULL;
            r = PyTuple_Pack(1, s);
            Py_DECREF(s);
            return r;
        }
    } else if (name[0] == 'T' && name[1] == 'J') {
        r = plain_array(d, t, n);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    r = name_numbers(d, t, n, bad);
    if (r != NULL || PyErr_Occurred() || *bad) return r;
    if (name[0] == 'B' && name[1] == 'D') {
        PyObject *tag = mcid_only(d, t, n);
        if (tag != NULL) {
            r = PyTuple_Pack(2, tag, Py_None);
            Py_DECREF(tag);
            return r;
        }
        if (PyErr_Occurred()) return NULL;
    }
    if (n != 1 || t[0].kind != T_STR || t[0].simple != 1) { /* else contentstream._LITERAL */
        r = qpdf_operands(d, t, n);
        if (r != NULL || PyErr_Occurred()) return r;
    }
    return call_python(d, span_start, span_end, op, fallback);
}

static int has_bracket(const char *d, Py_ssize_t a, Py_ssize_t b)
{
    for (Py_ssize_t i = a; i < b; i++) {
        char c = d[i];
        if (c == '[' || c == ']') return 1;
        if ((c == '<' || c == '>') && i + 1 < b && d[i + 1] == c) return 1;
    }
    return 0;
}

/* contentstream.strip_comments, in place: every comment outside a string is dropped up to
 * its end of line (qpdf's parser reads a comment as white space; TeX and MetaPost write them
 * between the operands of cm, Tf and TJ). Strings nest and take backslash escapes, as the
 * scan reads them. Returns the new length. */
static Py_ssize_t strip_comments(char *d, Py_ssize_t len)
{
    if (memchr(d, '%', len) == NULL) return len;
    Py_ssize_t out = 0, i = 0;
    while (i < len) {
        char c = d[i];
        if (c == '(') {
            Py_ssize_t depth = 0;
            while (i < len) {
                char x = d[i];
                if (x == '\\') {
                    d[out++] = d[i++];
                    if (i < len) d[out++] = d[i++];
                    continue;
                }
                d[out++] = d[i++];
                if (x == '(') {
                    depth++;
                } else if (x == ')' && --depth == 0) {
                    break;
                }
            }
        } else if (c == '%') {
            while (i < len && d[i] != '\r' && d[i] != '\n') i++;
        } else {
            d[out++] = d[i++];
        }
    }
    return out;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer view;
    PyObject *fallback;
    if (!PyArg_ParseTuple(args, "y*O:scan", &view, &fallback)) return NULL;
    const char *src = view.buf;
    Py_ssize_t len = view.len;
    /* the sentinel operator, as in the Python route */
    Py_ssize_t n = len + 3;
    char *d = PyMem_Malloc(n + 1);
    if (d == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    memcpy(d, src, len);
    PyBuffer_Release(&view);
    len = strip_comments(d, len);
    n = len + 3;
    memcpy(d + len, "\nEX", 4);

    PyObject *result = NULL, *ops = NULL, *brackets = NULL;
    Tokens tk = {NULL, 0, 0};
    int decline = 0;

    ops = PyList_New(0);
    brackets = PyList_New(0);
    if (ops == NULL || brackets == NULL) goto done;

    Py_ssize_t pos = 0;
    while (pos < n) {
        Py_ssize_t span_start = pos;
        int nul = 0; /* a NUL between the operands: only the Python route's patterns decide */
        tk.n = 0;
        for (;;) { /* operands */
            unsigned char c = (unsigned char)d[pos];
            if (is_ws[c]) {
                while (pos < n && is_ws[(unsigned char)d[pos]]) nul |= d[pos++] == 0;
            } else if (c == '%') { /* a comment: an operand only qpdf's parser reads */
                Py_ssize_t s = pos;
                while (pos < n && d[pos] != '\r' && d[pos] != '\n') pos++;
                if (push(&tk, s, pos, T_OTHER, 0) < 0) goto done;
            } else if (is_numchar[c]) {
                Py_ssize_t s = pos;
                while (pos < n && is_numchar[(unsigned char)d[pos]]) pos++;
                if (pos < n && REGULAR(d[pos])) {
                    decline = 1;
                    goto done;
                }
                if (push(&tk, s, pos, T_NUM, 1) < 0) goto done;
            } else if (c == '/') {
                Py_ssize_t s = pos++;
                int plain = 1;
                while (pos < n && REGULAR(d[pos])) {
                    if (!is_name_plain[(unsigned char)d[pos]]) plain = 0;
                    pos++;
                }
                if (push(&tk, s, pos, T_NAME, plain) < 0) goto done;
            } else if (c == '(') {
                Py_ssize_t s = pos++;
                int plain = 1;
                for (;;) {
                    if (pos >= n) {
                        decline = 1;
                        goto done;
                    }
                    char x = d[pos];
                    if (x == ')') break;
                    if (x == '(') {
                        decline = 1; /* nested: qpdf's */
                        goto done;
                    }
                    if (x == '\\') {
                        if (pos + 1 < n && plain) plain = escape_ok(d + pos + 1, n - pos - 1);
                        pos += 2;
                        continue;
                    }
                    if (x == '\r') plain = 0;
                    pos++;
                }
                pos++;
                if (push(&tk, s, pos, T_STR, plain) < 0) goto done;
            } else if (c == '<') {
                Py_ssize_t s = pos++;
                if (pos < n && d[pos] == '<') {
                    pos++;
                    if (push(&tk, s, pos, T_OTHER, 0) < 0) goto done;
                } else {
                    while (pos < n && is_hex[(unsigned char)d[pos]])
                        pos++;
                    if (pos >= n || d[pos] != '>') {
                        decline = 1;
                        goto done;
                    }
                    pos++;
                    if (push(&tk, s, pos, T_HEX, 1) < 0) goto done;
                }
            } else if (c == '>') {
                if (pos + 1 < n && d[pos + 1] == '>') {
                    if (push(&tk, pos, pos + 2, T_OTHER, 0) < 0) goto done;
                    pos += 2;
                } else {
                    decline = 1;
                    goto done;
                }
            } else if (c == '[' || c == ']') {
                if (push(&tk, pos, pos + 1, T_OTHER, 0) < 0) goto done;
                pos++;
            } else if ((c == 't' && pos + 4 <= n && memcmp(d + pos, "true", 4) == 0
                        && (pos + 4 == n || !REGULAR(d[pos + 4])))
                       || (c == 'n' && pos + 4 <= n && memcmp(d + pos, "null", 4) == 0
                           && (pos + 4 == n || !REGULAR(d[pos + 4])))) {
                if (push(&tk, pos, pos + 4, T_OTHER, 0) < 0) goto done;
                pos += 4;
            } else if (c == 'f' && pos + 5 <= n && memcmp(d + pos, "false", 5) == 0
                       && (pos + 5 == n || !REGULAR(d[pos + 5]))) {
                if (push(&tk, pos, pos + 5, T_OTHER, 0) < 0) goto done;
                pos += 5;
            } else {
                break;
            }
            if (pos >= n) {
                decline = 1; /* operands without an operator cannot end the sentinel stream */
                goto done;
            }
        }
        unsigned char c = (unsigned char)d[pos];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '\'' || c == '"')) {
            decline = 1; /* a character no token accepts */
            goto done;
        }
        Py_ssize_t op_start = pos++;
        while (pos < n && REGULAR(d[pos])) pos++;
        int op = find_op(d + op_start, pos - op_start);
        if (op < 0) {
            decline = 1;
            goto done;
        }
        if (OPS[op].cls == OP_SKIP || OPS[op].cls == OP_NONE) {
            if (has_bracket(d, span_start, op_start)) {
                PyObject *span = PyBytes_FromStringAndSize(d + span_start, op_start - span_start);
                if (span == NULL || PyList_Append(brackets, span) < 0) {
                    Py_XDECREF(span);
                    goto done;
                }
                Py_DECREF(span);
            }
            if (OPS[op].cls == OP_SKIP) continue;
        }
        int bad = 0;
        PyObject *operands =
            walked_operands(d, span_start, op_start, tk.t, nul ? -1 : tk.n, op, fallback, &bad);
        if (operands == NULL) {
            if (bad && !PyErr_Occurred()) decline = 1;
            goto done;
        }
        PyObject *inst = PyTuple_Pack(2, op_bytes[op], operands);
        Py_DECREF(operands);
        if (inst == NULL || PyList_Append(ops, inst) < 0) {
            Py_XDECREF(inst);
            goto done;
        }
        Py_DECREF(inst);
    }
    result = PyTuple_Pack(2, ops, brackets);

done:
    PyMem_Free(d);
    PyMem_Free(tk.t);
    Py_XDECREF(ops);
    Py_XDECREF(brackets);
    if (decline && !PyErr_Occurred()) {
        Py_XDECREF(result);
        Py_RETURN_NONE;
    }
    return result;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data, operands) -> (instructions, bracket spans) or None (see contentstream.py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_tokenize", "The content-stream tokenizer in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tokenize(void)
{
    init_tables();
    empty_tuple = PyTuple_New(0);
    if (empty_tuple == NULL) return NULL;
    for (size_t i = 0; i < N_OPS; i++) {
        op_bytes[i] = PyBytes_FromString(OPS[i].name);
        if (op_bytes[i] == NULL) return NULL;
    }
    return PyModule_Create(&module);
}
