"""What a korxsol solighter carries from one fight of a campaign to the next: nothing
(host/core/campaign_carry.py is the hook; docs/rulesets/korxsol.md says why).

The players' guide plays one game from its setup to GAME END, when one team's KOR are all at
0 (korxsol-players-guide.txt, lines 301-302), and names nothing that outlasts it: each
player starts a game with 3 SOL (line 53) and its KOR at its starting value, which healing
never passes (lines 41-42). So each fight of a campaign starts from the party's stat lines;
the campaign keeps the party, its scores and the fights' journals. A party file may hold
the moves, items and artifacts its solighters name, as an encounter file does.
"""

from __future__ import annotations

from host.core.campaign_carry import Carry
from host.rulesets.korxsol.language import ROSTER


class KorxsolCarry(Carry):
    roster = ROSTER
    shared_tables = ("move", "item", "artifact")
    what = (
        "nothing: a game runs from its setup to GAME END, each starting with its KOR and 3 SOL"
        " (korxsol-players-guide.txt lines 41-42, 53, 301-302)"
    )
