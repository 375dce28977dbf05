"""What the variants keep on a deal, and the decision points where the deal asks them.

A :class:`~preferans.deal.Deal` is made of its phases (:mod:`preferans.deal_legal`,
:mod:`preferans.deal_play`, :mod:`preferans.deal_defence`, :mod:`preferans.deal_view`) and
of the variants' parts (:class:`preferans.variants.DealVariants`).  The deal asks them at a
few named points:

============================  ==========================================================
``_new_auction``              who bids (the dummy never does) and whether blind
``_start_variants``           how the deal opens: an auction, the Rogue's naming, or
                              Classical's half-time choice first
``_variant_to_act``           who acts in a variant's own phase (name, invite, halftime)
``_apply_variant``            what such a phase's action does
``_named_in_full``            whether the contract was named before the talon (Rogue)
``_rogue_defence`` etc.       who defends, called from the defence (:mod:`deal_defence`)
============================  ==========================================================

The sheet's decision points are :class:`preferans.variants.SheetVariants`'s.
"""

from __future__ import annotations


class VariantState:
    """The variants' slots on a deal (the deal's own are :class:`~preferans.deal.Deal`'s).

    ``dummy``: the dummy's seat (2) in the two-player game, else ``None``.
    ``forced_allpass``: Racing: everyone must pass (the first deal of a round, or after a
    failure).  ``rogue_item``: Rogue: the item of the soloist's list this deal plays
    (``"6S"``, ``"8"``, …).  ``invited``: the soloist invited the sitting dealer to share
    his game (``dealer_share``); ``dealer_shared``: the invited dealer accepted, and shares
    the soloist's profit or losses equally.  ``halftime``: Classical (``halftime_choice``):
    ``(leader, smallest hill)`` when this deal opens with the leader's choice of the second
    half (phase ``halftime``); ``second_half``: the leader's choice, ``(pool, final lap
    after)``, once he has said ``SECOND p t``.
    """

    __slots__ = (
        "_after_halftime",
        "_rogue_items",
        "_soloist",
        "dealer_shared",
        "dummy",
        "forced_allpass",
        "halftime",
        "invited",
        "rogue_item",
        "second_half",
    )
