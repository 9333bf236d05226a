"""Desktop side of Turnlight: `cli.py` is the `turnlight` command; the packages are its
parts by job (docs/architecture.md): core/, rulesets/, board/, screens/, web/, commands/,
lab/.

The two shared modules the desktop adds to the board's are loaded here, first thing:
shared/words.py words a shared Problem's str(), and shared/roster.py gives GameState its
deep copy. A board loads neither.
"""

import shared.roster  # noqa: F401
import shared.words  # noqa: F401
