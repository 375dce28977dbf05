/* preferans.env._vector.Deal: one deal on the core, stepped one action at a time, for the
 * OpenSpiel game and the PettingZoo environment (preferans.env.deal_core).  The cards come as
 * chance outcomes in dealing order (core.dealing_seats: ten to each seat from the dealer's
 * left, then the talon), uniform over the cards not yet dealt or, with a plan, the plan's
 * card; then the seats' decisions, by action id (spec.py), until the deal ends. */
#include <string.h>

#include "pc_py.h"

#define CHANCE (-1)
#define TERMINAL (-4)

typedef struct {
    PyObject_HEAD
    pc_rules rules;
    pc_deal deal;
    uint8_t cards[32]; /* dealt so far, in order */
    uint8_t plan[32];
    uint8_t ndealt, has_plan, dealer;
    uint32_t used;     /* cards dealt so far, as a mask */
    pc_log log;        /* the calls and the cards played, for the information state */
} Deal;

static int deal_init(Deal *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"rules", "dealer", "plan", NULL};
    PyObject *rules, *plan = Py_None;
    int dealer;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oi|O", kwlist, &rules, &dealer, &plan))
        return -1;
    if (dealer < 0 || dealer > 2) {
        PyErr_SetString(PyExc_ValueError, "dealer must be a seat (0..2)");
        return -1;
    }
    if (pc_py_rules(rules, &self->rules) < 0)
        return -1;
    memset(&self->deal, 0, sizeof self->deal);
    memset(&self->log, 0, sizeof self->log);
    self->ndealt = 0;
    self->used = 0;
    self->dealer = (uint8_t)dealer;
    self->has_plan = 0;
    if (plan != Py_None) {
        Py_buffer v;
        if (PyObject_GetBuffer(plan, &v, PyBUF_SIMPLE) < 0)
            return -1;
        uint32_t seen = 0;
        int ok = v.len == 32;
        for (Py_ssize_t k = 0; ok && k < 32; k++) {
            uint8_t c = ((const uint8_t *)v.buf)[k];
            ok = c < 32 && !(seen >> c & 1);
            seen |= 1u << (c & 31);
            self->plan[k] = c;
        }
        PyBuffer_Release(&v);
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "the plan must be the 32 cards, each once");
            return -1;
        }
        self->has_plan = 1;
    }
    return 0;
}

static int dealing(const Deal *self) { return self->ndealt < 32; }

static PyObject *deal_current_player(Deal *self, PyObject *unused)
{
    (void)unused;
    if (dealing(self))
        return PyLong_FromLong(CHANCE);
    if (self->deal.phase == PC_PH_DONE)
        return PyLong_FromLong(TERMINAL);
    return PyLong_FromLong(pc_to_act(&self->deal));
}

static PyObject *deal_legal_actions(Deal *self, PyObject *unused)
{
    (void)unused;
    PyObject *out = PyList_New(0);
    if (!out || dealing(self) || self->deal.phase == PC_PH_DONE)
        return out;
    uint64_t mask[2];
    pc_legal(&self->rules, &self->deal, mask);
    for (int w = 0; w < 2; w++) {
        uint64_t bits = mask[w];
        while (bits) {
            PyObject *id = PyLong_FromLong(64 * w + __builtin_ctzll(bits));
            if (!id || PyList_Append(out, id) < 0) {
                Py_XDECREF(id);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(id);
            bits &= bits - 1;
        }
    }
    return out;
}

static PyObject *deal_chance_outcomes(Deal *self, PyObject *unused)
{
    (void)unused;
    if (!dealing(self))
        return PyList_New(0);
    if (self->has_plan)
        return Py_BuildValue("[(id)]", self->plan[self->ndealt], 1.0);
    int left = 32 - self->ndealt;
    PyObject *out = PyList_New(left);
    if (!out)
        return NULL;
    double p = 1.0 / left;
    Py_ssize_t k = 0;
    for (int c = 0; c < 32; c++) {
        if (self->used >> c & 1)
            continue;
        PyObject *item = Py_BuildValue("(id)", c, p);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k++, item);
    }
    return out;
}

/* apply(id) -> True when the deal ended with this action; ValueError when it is not legal. */
static PyObject *deal_apply(Deal *self, PyObject *arg)
{
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred())
        return NULL;
    if (dealing(self)) {
        int c = (int)id;
        if (id < 0 || id >= 32 || self->used >> c & 1 ||
            (self->has_plan && c != self->plan[self->ndealt])) {
            PyErr_Format(PyExc_ValueError, "chance outcome %ld is not the card to be dealt "
                         "now", id);
            return NULL;
        }
        self->cards[self->ndealt++] = (uint8_t)c;
        self->used |= 1u << c;
        if (!dealing(self))
            pc_start(&self->rules, &self->deal, self->cards, self->dealer);
        Py_RETURN_FALSE;
    }
    if (self->deal.phase == PC_PH_DONE) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    pc_log_mark mark = pc_log_before(&self->deal);
    if (id < 0 || id >= PC_NUM_ACTIONS || pc_apply(&self->rules, &self->deal, (int)id) < 0) {
        PyErr_Format(PyExc_ValueError, "action %ld is not legal now", id);
        return NULL;
    }
    pc_log_after(&self->log, mark, (int)id);
    return PyBool_FromLong(self->deal.phase == PC_PH_DONE);
}

/* The arguments (seat, out) of observe and observe_info: a seat of a dealt deal and a writable
 * float32[size] buffer, got into ``v`` (released by the caller); -1 with an error if not. */
static int seat_and_out(Deal *self, PyObject *args, const char *what, Py_ssize_t size,
                        int *seat, Py_buffer *v)
{
    PyObject *o_out;
    if (!PyArg_ParseTuple(args, "iO", seat, &o_out))
        return -1;
    if (*seat < 0 || *seat > 2 || dealing(self)) {
        PyErr_Format(PyExc_ValueError, "%s needs a seat (0..2) of a dealt deal", what);
        return -1;
    }
    if (PyObject_GetBuffer(o_out, v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (v->itemsize != 4 || v->len != 4 * size || !v->format || strcmp(v->format, "f")) {
        PyBuffer_Release(v);
        PyErr_Format(PyExc_ValueError, "out must be float32[%zd]", size);
        return -1;
    }
    return 0;
}

/* observe(seat, out): the seat's observation tensor (float32[594]) into ``out``. */
static PyObject *deal_observe(Deal *self, PyObject *args)
{
    int seat;
    Py_buffer v;
    if (seat_and_out(self, args, "observe", PC_OBS_SIZE, &seat, &v) < 0)
        return NULL;
    pc_observe(&self->deal, seat, self->rules.min_level, v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* observe_info(seat, out): the seat's information-state tensor (float32[5551]) into ``out``. */
static PyObject *deal_observe_info(Deal *self, PyObject *args)
{
    int seat;
    Py_buffer v;
    if (seat_and_out(self, args, "observe_info", PC_INFO_SIZE, &seat, &v) < 0)
        return NULL;
    pc_info_state(&self->deal, &self->log, seat, self->rules.min_level, v.buf);
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

/* score_key() -> the deal's key in the score table (vector_score.py), None before its end. */
static PyObject *deal_score_key(Deal *self, PyObject *unused)
{
    (void)unused;
    if (dealing(self) || self->deal.phase != PC_PH_DONE)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(pc_score_key(&self->rules, &self->deal));
}

static PyObject *deal_phase(Deal *self, PyObject *unused)
{
    (void)unused;
    return PyLong_FromLong(dealing(self) ? 0 : self->deal.phase);
}

static PyObject *deal_copy(Deal *self, PyObject *unused)
{
    (void)unused;
    Deal *other = PyObject_New(Deal, &pc_DealType);
    if (!other)
        return NULL;
    memcpy((char *)other + sizeof(PyObject), (char *)self + sizeof(PyObject),
           sizeof(Deal) - sizeof(PyObject));
    return (PyObject *)other;
}

static PyObject *deal_get_dealer(Deal *self, void *unused)
{
    (void)unused;
    return PyLong_FromLong(self->dealer);
}

static PyMethodDef deal_methods[] = {
    {"current_player", (PyCFunction)deal_current_player, METH_NOARGS,
     "the seat to act; -1 while cards are dealt, -4 once the deal is over"},
    {"legal_actions", (PyCFunction)deal_legal_actions, METH_NOARGS,
     "the legal action ids of the seat to act, ascending (empty while dealing)"},
    {"chance_outcomes", (PyCFunction)deal_chance_outcomes, METH_NOARGS,
     "[(card, probability)] of the next card dealt (empty once dealt)"},
    {"apply", (PyCFunction)deal_apply, METH_O,
     "apply(id) -> whether the deal ended; ValueError when id is not legal now"},
    {"observe", (PyCFunction)deal_observe, METH_VARARGS,
     "observe(seat, out): the seat's observation tensor into float32[594] out"},
    {"observe_info", (PyCFunction)deal_observe_info, METH_VARARGS,
     "observe_info(seat, out): the seat's information-state tensor into float32[5551] out"},
    {"score_key", (PyCFunction)deal_score_key, METH_NOARGS,
     "the ended deal's score key (vector_score.py), None before"},
    {"phase", (PyCFunction)deal_phase, METH_NOARGS,
     "the phase (its index in tensors.PHASES), 0 while dealing"},
    {"copy", (PyCFunction)deal_copy, METH_NOARGS, "an independent copy"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef deal_getset[] = {
    {"dealer", (getter)deal_get_dealer, NULL, "the dealer's seat", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject pc_DealType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "preferans.env._vector.Deal",
    .tp_basicsize = sizeof(Deal),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Deal(rules, dealer, plan=None): one Preferans deal on the C core "
              "(see preferans.env.deal_core)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)deal_init,
    .tp_methods = deal_methods,
    .tp_getset = deal_getset,
};
