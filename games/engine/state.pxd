# Static types for state.py, read only by the compiled build (scripts/build_compiled.py);
# plain Python never sees this file. State becomes a final extension type with the same
# attributes and methods: attributes are struct fields, internal calls are C calls.
cimport cython

cpdef _take(list hand, list cards, Py_ssize_t seat)
cpdef _check_cards(cards, Py_ssize_t seat, str kind)


@cython.final
cdef class State:
    cdef public Py_ssize_t n, round, deck_pos, limit, unrejected, active, target
    cdef public object supporter, pending, next_deal
    cdef public str stage, trump_card, trump
    cdef public bint passed, active_done, supporter_done
    cdef public list hands, deck, out, feather_stack, feathers, bets, bet_piles
    cdef public list bet_history, round_losers, discard, box, known, deals, moves, starts
    cdef public list table_cards, table_played_by, table_rejections
    cdef public set values

    cpdef _open(self, Py_ssize_t active)
    @cython.locals(kind=object, spec=tuple, stage=str)
    cpdef apply(self, move)
    cpdef _not_waited_on(self, seat, kind)
    @cython.locals(rank=str, c=str)  # not cards: it is checked to be a list inside
    cpdef _challenge(self, Py_ssize_t seat, dict move)
    @cython.locals(hand=list, known=list, values=set, k=Py_ssize_t)
    cpdef _play(self, Py_ssize_t seat, list cards)
    cpdef _add(self, Py_ssize_t seat, dict move)
    @cython.locals(table_cards=list, table_rejections=list, rejecters=dict, seen=set,
                   cards=list, hand=list, known=list)
    cpdef _reject(self, Py_ssize_t seat, dict move)
    cpdef _bet(self, Py_ssize_t seat, dict move)
    @cython.locals(stage=str, values=set, supporter=object, card=str)
    cpdef _settle(self)
    cpdef bint _target_can_reject(self) except -1
    @cython.locals(cards=list, hand=list, deck=list, need=Py_ssize_t)
    cpdef _resolve(self)
    cpdef bint _take_feather(self, Py_ssize_t seat) except -1
    cpdef _next_challenge(self, Py_ssize_t target, bint passed)
    cpdef _start_phase_two(self)
