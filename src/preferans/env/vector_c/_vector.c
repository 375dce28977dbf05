/* The Python binding of the deal core: preferans.env._vector.Batch, N deals stepped in one
 * call.  Arrays come in as writable buffers (numpy arrays), so the extension needs no numpy
 * headers; preferans.env.vector allocates them and checks their types. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "pc_py.h"


typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    pc_rules rules;
    pc_deal *deals;
    uint64_t *rng;      /* per deal: the cards */
    uint64_t *pick_rng; /* per deal: random_actions */
    uint64_t (*masks)[2];
} Batch;

/* The 18 numbers of vector_claim.core_parameters as a pc_rules (pc_py.h). */
int pc_py_rules(PyObject *seq, pc_rules *r)
{
    PyObject *fast = PySequence_Fast(seq, "rules must be a sequence of 18 small integers");
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != NRULES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "rules must hold %d integers", NRULES);
        return -1;
    }
    uint8_t v[NRULES];
    for (int k = 0; k < NRULES; k++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (x < 0 || x > 255) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "rules[%d] = %ld is out of range", k, x);
            return -1;
        }
        v[k] = (uint8_t)x;
    }
    Py_DECREF(fast);
    r->seniority = v[0];
    r->jump_bids = v[1];
    r->min_level = v[2];
    r->misere_outbid_by = v[3];
    r->talon_refusal = v[4];
    r->resignation = v[5];
    r->tens_whisted = v[6];
    r->stalingrad = v[7];
    r->stalingrad_sixes = v[8];
    r->half_levels = v[9];
    r->half_whist_reopen = v[10];
    r->whist_pass_half = v[11];
    r->lone_closed_only = v[12];
    r->open_before_lead = v[13];
    r->misere_exposure = v[14];
    r->allpass_talon_lead = v[15];
    r->score_q = v[16];
    r->score_r = v[17];
    if (r->min_level < 6 || r->min_level > 10 || (r->misere_outbid_by != 9 &&
        r->misere_outbid_by != 10) || r->misere_exposure > 2 || (r->score_q != 1 &&
        r->score_q != 4) || (r->score_r != 1 && r->score_r != 2)) {
        PyErr_SetString(PyExc_ValueError, "rules hold a value the core does not know");
        return -1;
    }
    return 0;
}

/* A writable C-contiguous buffer of ``count`` items of ``size`` bytes. */
static int get_buf(PyObject *obj, Py_buffer *view, Py_ssize_t size, Py_ssize_t count,
                   const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->itemsize != size || view->len != size * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes expected, got %zd bytes "
                     "of items of %zd", name, count, size, view->len, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void release(Py_buffer *views, int n)
{
    for (int k = 0; k < n; k++)
        PyBuffer_Release(&views[k]);
}

static void batch_dealloc(Batch *self)
{
    free(self->deals);
    free(self->rng);
    free(self->pick_rng);
    free(self->masks);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void seed_all(Batch *self, uint64_t seed)
{
    for (Py_ssize_t i = 0; i < self->n; i++) {
        self->rng[i] = pc_seed(seed, (uint64_t)i);
        self->pick_rng[i] = pc_seed(seed ^ 0x5DEECE66DULL, (uint64_t)i);
    }
}

static int batch_init(Batch *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"num_envs", "rules", "seed", NULL};
    Py_ssize_t n;
    PyObject *rules;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOK", kwlist, &n, &rules, &seed))
        return -1;
    if (n < 1 || n > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "num_envs must be 1 .. 16777216");
        return -1;
    }
    if (pc_py_rules(rules, &self->rules) < 0)
        return -1;
    free(self->deals);
    free(self->rng);
    free(self->pick_rng);
    free(self->masks);
    self->n = n;
    self->deals = calloc((size_t)n, sizeof(pc_deal));
    self->rng = calloc((size_t)n, sizeof(uint64_t));
    self->pick_rng = calloc((size_t)n, sizeof(uint64_t));
    self->masks = calloc((size_t)n, sizeof(uint64_t[2]));
    if (!self->deals || !self->rng || !self->pick_rng || !self->masks) {
        PyErr_NoMemory();
        return -1;
    }
    seed_all(self, (uint64_t)seed);
    return 0;
}

static void new_deal(Batch *self, Py_ssize_t i)
{
    uint8_t cards[32], dealer;
    pc_shuffle(&self->rng[i], cards, &dealer);
    pc_start(&self->rules, &self->deals[i], cards, dealer);
}

/* Write deal i's observation (of the seat to act), legal mask and seat to act. */
static void emit(Batch *self, Py_ssize_t i, float *obs, uint8_t *mask, int64_t *player)
{
    pc_deal *d = &self->deals[i];
    int seat = pc_to_act(d);
    pc_legal(&self->rules, d, self->masks[i]);
    pc_observe(d, seat, self->rules.min_level, obs + i * PC_OBS_SIZE);
    uint8_t *m = mask + i * PC_NUM_ACTIONS;
    memset(m, 0, PC_NUM_ACTIONS);
    for (int w = 0; w < 2; w++) {
        uint64_t bits = self->masks[i][w];
        while (bits) {
            m[64 * w + __builtin_ctzll(bits)] = 1;
            bits &= bits - 1;
        }
    }
    player[i] = seat;
}

static PyObject *batch_reset(Batch *self, PyObject *args)
{
    PyObject *o_obs, *o_mask, *o_player, *o_seed = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O", &o_obs, &o_mask, &o_player, &o_seed))
        return NULL;
    Py_buffer v[3];
    if (get_buf(o_obs, &v[0], 4, self->n * PC_OBS_SIZE, "obs") < 0)
        return NULL;
    if (get_buf(o_mask, &v[1], 1, self->n * PC_NUM_ACTIONS, "mask") < 0) {
        release(v, 1);
        return NULL;
    }
    if (get_buf(o_player, &v[2], 8, self->n, "player") < 0) {
        release(v, 2);
        return NULL;
    }
    if (o_seed != Py_None) {
        unsigned long long seed = PyLong_AsUnsignedLongLong(o_seed);
        if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
            release(v, 3);
            return NULL;
        }
        seed_all(self, (uint64_t)seed);
    }
    for (Py_ssize_t i = 0; i < self->n; i++) {
        new_deal(self, i);
        emit(self, i, v[0].buf, v[1].buf, v[2].buf);
    }
    release(v, 3);
    Py_RETURN_NONE;
}

/* step(actions, obs, mask, rewards, done, player, keys, table) -> deals ended whose score is
 * not in the table yet (their rewards are NaN: the caller scores them).  keys[i] is
 * 3 * key + dealer for a deal ended, -1 otherwise; the table's rows are by seat from the
 * dealer. */
static PyObject *batch_step(Batch *self, PyObject *args)
{
    PyObject *o[8];
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7]))
        return NULL;
    const Py_ssize_t n = self->n;
    const Py_ssize_t sizes[8] = {8, 4, 1, 8, 1, 8, 8, 8};
    const Py_ssize_t counts[8] = {n, n * PC_OBS_SIZE, n * PC_NUM_ACTIONS, n * 3, n, n, n,
                                  pc_score_keys(&self->rules) * 3};
    static const char *names[8] = {"actions", "obs", "mask", "rewards", "done", "player",
                                   "keys", "table"};
    Py_buffer v[8];
    for (int k = 0; k < 8; k++)
        if (get_buf(o[k], &v[k], sizes[k], counts[k], names[k]) < 0) {
            release(v, k);
            return NULL;
        }
    const int64_t *actions = v[0].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t id = actions[i];
        if (id < 0 || id >= PC_NUM_ACTIONS || !(self->masks[i][id >> 6] >> (id & 63) & 1)) {
            release(v, 8);
            PyErr_Format(PyExc_ValueError, "action %lld of env %zd is not legal now",
                         (long long)id, i);
            return NULL;
        }
    }
    float *obs = v[1].buf;
    uint8_t *mask = v[2].buf, *done = v[4].buf;
    double *rewards = v[3].buf;
    const double *table = v[7].buf;
    int64_t *player = v[5].buf, *keys = v[6].buf;
    Py_ssize_t missing = 0;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        pc_deal *d = &self->deals[i];
        if (pc_apply(&self->rules, d, (int)actions[i]) < 0) {
            failed = 1; /* unreachable: checked above */
            break;
        }
        if (d->phase == PC_PH_DONE) {
            int64_t key = pc_score_key(&self->rules, d);
            keys[i] = 3 * key + d->dealer;
            done[i] = 1;
            for (int s = 0; s < 3; s++)
                rewards[3 * i + s] = table[3 * key + (s - d->dealer + 3) % 3];
            if (isnan(table[3 * key]))
                missing++;
            new_deal(self, i);
        } else {
            keys[i] = -1;
            done[i] = 0;
            rewards[3 * i] = rewards[3 * i + 1] = rewards[3 * i + 2] = 0.0;
        }
        emit(self, i, obs, mask, player);
    }
    Py_END_ALLOW_THREADS
    release(v, 8);
    if (failed) {
        PyErr_SetString(PyExc_RuntimeError, "the deal core refused a legal action");
        return NULL;
    }
    return PyLong_FromSsize_t(missing);
}

/* random_actions(out): a legal action id per deal, uniformly (the batch's own generator). */
static PyObject *batch_random_actions(Batch *self, PyObject *args)
{
    PyObject *o_out;
    if (!PyArg_ParseTuple(args, "O", &o_out))
        return NULL;
    Py_buffer v;
    if (get_buf(o_out, &v, 8, self->n, "out") < 0)
        return NULL;
    int64_t *out = v.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        uint64_t lo = self->masks[i][0], hi = self->masks[i][1];
        int count = __builtin_popcountll(lo) + __builtin_popcountll(hi);
        int k = count ? (int)(pc_next(&self->pick_rng[i]) % (uint64_t)count) : 0;
        int id = -1;
        for (int w = 0; w < 2 && id < 0; w++) {
            uint64_t bits = w ? hi : lo;
            while (bits) {
                if (k-- == 0) {
                    id = 64 * w + __builtin_ctzll(bits);
                    break;
                }
                bits &= bits - 1;
            }
        }
        out[i] = id;
    }
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* deal(i) -> (dealer, hands by seat as card masks, talon, phase): the cards of deal i. */
static PyObject *batch_deal(Batch *self, PyObject *args)
{
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i))
        return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "no such env");
        return NULL;
    }
    const pc_deal *d = &self->deals[i];
    return Py_BuildValue("i(kkk)(ii)i", d->dealer, (unsigned long)d->hands[0],
                         (unsigned long)d->hands[1], (unsigned long)d->hands[2], d->talon[0],
                         d->talon[1], d->phase);
}

static PyObject *batch_score_keys(Batch *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLongLong(pc_score_keys(&self->rules));
}

static PyMethodDef batch_methods[] = {
    {"reset", (PyCFunction)batch_reset, METH_VARARGS,
     "reset(obs, mask, player, seed=None): deal every env afresh"},
    {"step", (PyCFunction)batch_step, METH_VARARGS,
     "step(actions, obs, mask, rewards, done, player, keys, table) -> scores missing"},
    {"random_actions", (PyCFunction)batch_random_actions, METH_VARARGS,
     "random_actions(out): a uniformly random legal action per env"},
    {"deal", (PyCFunction)batch_deal, METH_VARARGS,
     "deal(i) -> (dealer, hands, talon, phase)"},
    {"score_keys", (PyCFunction)batch_score_keys, METH_NOARGS,
     "the size of the score table (keys)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "preferans.env._vector.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N Preferans deals stepped in C (see preferans.env.vector)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)batch_init,
    .tp_dealloc = (destructor)batch_dealloc,
    .tp_methods = batch_methods,
};

static PyMethodDef module_methods[] = {
    {"float_list", (PyCFunction)pc_float_list, METH_O,
     "float_list(buffer) -> list[float]: a contiguous float32 buffer as a list"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_vector",
                                    "The C core of one Preferans deal, N at a time.", -1,
                                    module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__vector(void)
{
    if (PyType_Ready(&BatchType) < 0 || PyType_Ready(&pc_DealType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&pc_DealType);
    if (PyModule_AddObject(m, "Deal", (PyObject *)&pc_DealType) < 0) {
        Py_DECREF(&pc_DealType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "NUM_ACTIONS", PC_NUM_ACTIONS);
    PyModule_AddIntConstant(m, "OBSERVATION_SIZE", PC_OBS_SIZE);
    PyModule_AddIntConstant(m, "RULES", NRULES);
    return m;
}
