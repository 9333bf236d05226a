"""What an Advance adventurer carries from one fight of a campaign to the next
(host/core/campaign_carry.py is the hook; docs/rulesets/advance.md says it, citing the rules
text advance-late-combat-round.txt by line).

- Stamina (`stamina_now`): damage comes off it (line 70), and nothing in the text gives it
  back when combat ends.
- Willpower (`willpower_now`): spent on Evasion checks (line 131) and Death checks (line 90),
  and not restored by the end of combat, except that a Helpless character is freed with
  Willpower 1 (line 161).
- Damaged Body Parts (`damaged`): Body Damage marks a part (line 72), which cannot be used
  for checks (line 76), and nothing in the text mends it after the fight.
- Death (line 82): the dead stay dead, out of the fights, until the game master says
  otherwise (`campaign adjust NAME dead=false`).

Not carried: status ailments, all removed at the end of combat (line 153). The text has no
rest: `campaign adjust` sets what the table decides.
"""

from __future__ import annotations

from typing import Any

from host.core.campaign_carry import Carry, Line
from host.rulesets.advance.language import ROSTER


class AdvanceCarry(Carry):
    roster = ROSTER
    keys = ("stamina_now", "willpower_now", "damaged", "dead")
    lists = ("damaged",)
    apart = ("dead",)
    dead_key = "dead"
    what = (
        "Stamina, Willpower (a Helpless character ends the fight at 1) and damaged Body Parts;"
        " status ailments end with the fight (advance-late-combat-round.txt lines 70, 72-76,"
        " 153, 161); the dead stay dead"
    )

    def carried(self, game: Any, f: Any) -> Line:
        return {
            "stamina_now": f.stamina,
            "willpower_now": f.willpower,  # (a fight's end frees the Helpless: verbs.py)
            "damaged": list(f.damaged),
        }

    def died(self, f: Any) -> bool:
        return bool(f.status == "dead")
