/* Python binding of the Preferans double-dummy solver (see ddcore.h).
 *
 * Positions travel as nine plain arguments:
 *   (hand0, hand1, hand2, trick, leader, trump, mode, side, talon)
 * with hands as 32-bit card masks, trick and talon as sequences of ints
 * (card indices, suit numbers), trump as 0..3 or None/-1/4 for no trump,
 * mode 0 contract, 1 misere, 2 all-pass.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "ddcore.h"

#define MAX_THREADS 64

static PyObject *SolverError;
static dd_solver *g_main;
static dd_solver *g_pool[MAX_THREADS];
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t g_table_bytes = 1u << 19; /* 512 KB: fits a core's L2 cache with room to spare */

/* ------------------------------------------------------------- parsing */

static int get_int(PyObject *o, long lo, long hi, const char *what, long *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(SolverError, "%s must be an integer, not %.80s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(SolverError, "%s out of range %ld..%ld", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int get_mask(PyObject *o, int seat, uint32_t *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(SolverError, "hand of seat %d must be a card mask (int), not %.80s", seat,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < 0 || v > 0xFFFFFFFFLL) {
        PyErr_Format(SolverError, "hand of seat %d is not a 32-bit card mask", seat);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* A sequence argument (trick, talon) is first copied into a tuple of its own: the tuple
 * holds a reference to each item, so nothing the caller's objects do while being iterated
 * (a list emptied by its own __iter__, say) can free what is read afterwards. */
static int get_seq(PyObject *o, int maxlen, long lo, long hi, const char *what, int8_t *out,
                   int *n)
{
    PyObject *tuple = PySequence_Tuple(o);
    if (!tuple) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(SolverError, "%s must be a sequence of integers", what);
        }
        return -1;
    }
    Py_ssize_t len = PyTuple_GET_SIZE(tuple);
    if (len > maxlen) {
        if (maxlen == 2 && len == 3)
            PyErr_SetString(SolverError, "the trick on the table is complete (3 cards): clear it "
                                         "and give the next leader");
        else
            PyErr_Format(SolverError, "%s has %zd entries (at most %d)", what, len, maxlen);
        Py_DECREF(tuple);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v;
        if (get_int(PyTuple_GET_ITEM(tuple, i), lo, hi, what, &v) < 0) {
            Py_DECREF(tuple);
            return -1;
        }
        out[i] = (int8_t)v;
    }
    *n = (int)len;
    Py_DECREF(tuple);
    return 0;
}

static int parse_position(PyObject *const *a, dd_position *p)
{
    long v;
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 3; i++)
        if (get_mask(a[i], i, &p->hands[i]) < 0) return -1;
    if (get_seq(a[3], 2, 0, 31, "trick", p->trick, &p->ntrick) < 0) return -1;
    if (get_int(a[4], 0, 2, "leader", &v) < 0) return -1;
    p->leader = (int)v;
    if (a[5] == Py_None) {
        p->trump = DD_NOTRUMP;
    } else {
        if (get_int(a[5], -1, 4, "trump", &v) < 0) return -1;
        p->trump = (v < 0) ? DD_NOTRUMP : (int)v;
    }
    if (get_int(a[6], 0, 2, "mode", &v) < 0) return -1;
    p->mode = (int)v;
    if (get_int(a[7], 0, 2, "side", &v) < 0) return -1;
    p->side = (int)v;
    if (get_seq(a[8], DD_MAX_TALON, 0, 3, "talon_leads", p->talon, &p->ntalon) < 0) return -1;
    char msg[300];
    if (dd_validate(p, msg, sizeof msg) != 0) {
        PyErr_SetString(SolverError, msg);
        return -1;
    }
    return 0;
}

static int check_nargs(Py_ssize_t nargs)
{
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError,
                     "expected 9 arguments (hand0, hand1, hand2, trick, leader, trump, mode, side, "
                     "talon), got %zd",
                     nargs);
        return -1;
    }
    return 0;
}

static int ensure_main(void)
{
    if (!g_main) {
        g_main = dd_new(g_table_bytes);
        if (!g_main) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ single calls */

static PyObject *py_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    dd_position p;
    if (check_nargs(nargs) < 0 || parse_position(args, &p) < 0 || ensure_main() < 0) return NULL;
    return PyLong_FromLong(dd_solve(g_main, &p));
}

static PyObject *py_validate(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    dd_position p;
    if (check_nargs(nargs) < 0 || parse_position(args, &p) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *moves_dict(int n, const int8_t *cards, const int8_t *values)
{
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *k = PyLong_FromLong(cards[i]);
        PyObject *v = PyLong_FromLong(values[i]);
        if (!k || !v || PyDict_SetItem(d, k, v) < 0) {
            Py_XDECREF(k);
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    return d;
}

static PyObject *py_solve_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    dd_position p;
    if (check_nargs(nargs) < 0 || parse_position(args, &p) < 0 || ensure_main() < 0) return NULL;
    int8_t cards[DD_MAX_HAND], values[DD_MAX_HAND];
    int n = dd_solve_moves(g_main, &p, cards, values);
    return moves_dict(n, cards, values);
}

static PyObject *py_takes_none(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    dd_position p;
    if (check_nargs(nargs) < 0 || parse_position(args, &p) < 0 || ensure_main() < 0) return NULL;
    return PyBool_FromLong(dd_takes_none(g_main, &p));
}

/* ------------------------------------------------------------------ batch */

typedef struct {
    const dd_position *pos;
    int n;
    int moves;
    int *values;
    int8_t (*mcards)[DD_MAX_HAND];
    int8_t (*mvals)[DD_MAX_HAND];
    int8_t *mcount;
    atomic_int next;
} batch_t;

typedef struct {
    batch_t *b;
    dd_solver *s;
} worker_arg;

static void *worker(void *arg)
{
    worker_arg *w = arg;
    batch_t *b = w->b;
    for (;;) {
        int k = atomic_fetch_add(&b->next, 1);
        if (k >= b->n) break;
        if (b->moves)
            b->mcount[k] = (int8_t)dd_solve_moves(w->s, &b->pos[k], b->mcards[k], b->mvals[k]);
        else
            b->values[k] = dd_solve(w->s, &b->pos[k]);
    }
    return NULL;
}

static PyObject *py_solve_batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *seq;
    int threads = 2, moves = 0;
    if (!PyArg_ParseTuple(args, "O|ip", &seq, &threads, &moves)) return NULL;
    /* Copies, not views: the batch and each of its items become tuples of their own before
     * anything is read, so an item whose iteration mutates the caller's list cannot make
     * this read freed memory (PySequence_Fast would hand back the list itself). */
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "positions must be a sequence of 9-tuples");
        }
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(fast);
    if (n > (Py_ssize_t)1 << 28) {
        Py_DECREF(fast);
        PyErr_SetString(SolverError, "batch too large");
        return NULL;
    }
    if (threads <= 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        threads = nc > 0 ? (int)nc : 1;
    }
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads > n) threads = (int)(n > 0 ? n : 1);

    batch_t b;
    memset(&b, 0, sizeof b);
    b.n = (int)n;
    b.moves = moves;
    dd_position *pos = PyMem_Malloc(sizeof(dd_position) * (size_t)(n > 0 ? n : 1));
    int *values = NULL;
    int8_t(*mcards)[DD_MAX_HAND] = NULL, (*mvals)[DD_MAX_HAND] = NULL;
    int8_t *mcount = NULL;
    PyObject *result = NULL;
    if (!pos) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PySequence_Tuple(PyTuple_GET_ITEM(fast, i));
        if (!t) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "position %zd: expected a 9-tuple", i);
            }
            goto done;
        }
        if (PyTuple_GET_SIZE(t) != 9) {
            PyErr_Format(SolverError, "position %zd: expected a 9-tuple, not %zd items", i,
                         PyTuple_GET_SIZE(t));
            Py_DECREF(t);
            goto done;
        }
        int rc = parse_position(&PyTuple_GET_ITEM(t, 0), &pos[i]);
        Py_DECREF(t);
        if (rc < 0) {
            if (!PyErr_ExceptionMatches(SolverError)) goto done; /* not ours: pass it on */
            PyObject *et, *ev, *tb;
            PyErr_Fetch(&et, &ev, &tb);
            PyObject *s = ev ? PyObject_Str(ev) : NULL;
            if (s)
                PyErr_Format(SolverError, "position %zd: %U", i, s);
            else if (!PyErr_Occurred())
                PyErr_Format(SolverError, "position %zd: bad position", i);
            Py_XDECREF(s);
            Py_XDECREF(et);
            Py_XDECREF(ev);
            Py_XDECREF(tb);
            goto done;
        }
    }
    size_t cnt = (size_t)(n > 0 ? n : 1);
    if (moves) {
        mcards = PyMem_Malloc(sizeof(*mcards) * cnt);
        mvals = PyMem_Malloc(sizeof(*mvals) * cnt);
        mcount = PyMem_Malloc(cnt);
        if (!mcards || !mvals || !mcount) {
            PyErr_NoMemory();
            goto done;
        }
    } else {
        values = PyMem_Malloc(sizeof(int) * cnt);
        if (!values) {
            PyErr_NoMemory();
            goto done;
        }
    }
    b.pos = pos;
    b.values = values;
    b.mcards = mcards;
    b.mvals = mvals;
    b.mcount = mcount;
    atomic_init(&b.next, 0);

    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_pool_lock);
    for (int i = 0; i < threads && !failed; i++) {
        if (!g_pool[i]) {
            g_pool[i] = dd_new(g_table_bytes);
            if (!g_pool[i]) failed = 1;
        }
    }
    if (!failed && n > 0) {
        pthread_t tid[MAX_THREADS];
        worker_arg wa[MAX_THREADS];
        int started = 0;
        for (int i = 1; i < threads; i++) {
            wa[i].b = &b;
            wa[i].s = g_pool[i];
            if (pthread_create(&tid[i], NULL, worker, &wa[i]) != 0) break;
            started = i;
        }
        wa[0].b = &b;
        wa[0].s = g_pool[0];
        worker(&wa[0]);
        for (int i = 1; i <= started; i++) pthread_join(tid[i], NULL);
    }
    pthread_mutex_unlock(&g_pool_lock);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }

    result = PyList_New(n);
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = moves ? moves_dict(mcount[i], mcards[i], mvals[i]) : PyLong_FromLong(values[i]);
        if (!o) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, o);
    }
done:
    Py_DECREF(fast);
    PyMem_Free(pos);
    PyMem_Free(values);
    PyMem_Free(mcards);
    PyMem_Free(mvals);
    PyMem_Free(mcount);
    return result;
}

/* ------------------------------------------------------------ management */

static PyObject *py_set_table_size_mb(PyObject *self, PyObject *arg)
{
    (void)self;
    double mb = PyFloat_AsDouble(arg);
    if (mb == -1.0 && PyErr_Occurred()) return NULL;
    if (!(mb >= 0.01 && mb <= 65536.0)) {
        PyErr_SetString(SolverError, "table size must be between 0.01 and 65536 MB");
        return NULL;
    }
    size_t bytes = (size_t)(mb * 1024.0 * 1024.0);
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&g_pool_lock);
    for (int i = 0; i < MAX_THREADS; i++)
        if (g_pool[i] && dd_resize(g_pool[i], bytes) != 0) failed = 1;
    pthread_mutex_unlock(&g_pool_lock);
    Py_END_ALLOW_THREADS
    if (g_main && dd_resize(g_main, bytes) != 0) failed = 1;
    if (failed) return PyErr_NoMemory();
    g_table_bytes = bytes;
    Py_RETURN_NONE;
}

static PyObject *py_core_variant(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    if (ensure_main() < 0) return NULL;
    return PyUnicode_FromString(dd_variant(g_main) ? "bmi2" : "generic");
}

static PyObject *py_table_size_mb(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    if (ensure_main() < 0) return NULL;
    return PyFloat_FromDouble((double)dd_table_bytes(g_main) / (1024.0 * 1024.0));
}

static PyObject *py_nodes(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    if (ensure_main() < 0) return NULL;
    return PyLong_FromUnsignedLongLong(dd_nodes(g_main));
}

static PyObject *py_reset(PyObject *self, PyObject *args)
{
    (void)self;
    int clear = 0;
    if (!PyArg_ParseTuple(args, "|p", &clear)) return NULL;
    if (ensure_main() < 0) return NULL;
    dd_reset_nodes(g_main);
    if (clear) {
        dd_clear(g_main);
        Py_BEGIN_ALLOW_THREADS
        pthread_mutex_lock(&g_pool_lock);
        for (int i = 0; i < MAX_THREADS; i++)
            if (g_pool[i]) dd_clear(g_pool[i]);
        pthread_mutex_unlock(&g_pool_lock);
        Py_END_ALLOW_THREADS
    }
    Py_RETURN_NONE;
}

static void module_free(void *m)
{
    (void)m;
    dd_free(g_main);
    g_main = NULL;
    for (int i = 0; i < MAX_THREADS; i++) {
        dd_free(g_pool[i]);
        g_pool[i] = NULL;
    }
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_FASTCALL,
     "solve(h0, h1, h2, trick, leader, trump, mode, side, talon) -> tricks of the side"},
    {"validate", (PyCFunction)(void (*)(void))py_validate, METH_FASTCALL,
     "validate(...): raise SolverError when the position is bad"},
    {"solve_moves", (PyCFunction)(void (*)(void))py_solve_moves, METH_FASTCALL,
     "solve_moves(...) -> {card index: value after that card}"},
    {"takes_none", (PyCFunction)(void (*)(void))py_takes_none, METH_FASTCALL,
     "takes_none(...) -> True when the side takes no trick with best play"},
    {"solve_batch", py_solve_batch, METH_VARARGS,
     "solve_batch(list of 9-tuples, threads=2, moves=False) -> list of values or move dicts"},
    {"set_table_size_mb", py_set_table_size_mb, METH_O,
     "set_table_size_mb(mb): transposition table size per solver (one per thread)"},
    {"table_size_mb", py_table_size_mb, METH_NOARGS, "table size per solver in MB"},
    {"core_variant", py_core_variant, METH_NOARGS,
     "core_variant() -> 'bmi2' or 'generic': the copy of the search this CPU runs"},
    {"nodes", py_nodes, METH_NOARGS, "search nodes of the single-call solver since reset()"},
    {"reset", py_reset, METH_VARARGS, "reset(clear_tables=False): reset the node counter"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_solver", "Preferans double-dummy solver core (C).", -1, methods,
    NULL, NULL, NULL, module_free,
};

PyMODINIT_FUNC PyInit__solver(void)
{
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    SolverError = PyErr_NewExceptionWithDoc(
        "preferans.solver.SolverError", "A position the solver cannot accept.", PyExc_ValueError,
        NULL);
    if (!SolverError || PyModule_AddObjectRef(m, "SolverError", SolverError) < 0) {
        Py_XDECREF(SolverError);
        Py_DECREF(m);
        return NULL;
    }
    if (ensure_main() < 0) { /* also builds the static tables before any thread runs */
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
