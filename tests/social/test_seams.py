"""What social hooks into games, pinned: games never imports social."""

import pytest

from games import events


def test_social_registers_its_join_check_and_page_parts():
    assert [name for name, _f in events._join_checks] == ["social.blocks"]
    assert [name for name, _f in events._apart] == ["social.blocks"]
    assert events.template_parts() == {
        "table": ["social/_table_talk.html"],
        "live_now": ["social/_live_now_friends.html"],
    }


def test_a_template_part_for_an_unknown_place_is_refused():
    with pytest.raises(ValueError, match="slot must be one of"):
        events.template_part_register("footer", "x", "x.html")
