"""Smart dice (Pixels, GoDice) over Bluetooth LE, filling the roll a waiting action wants.

The parts, one job each:
- `model`: what a die is (`DieInfo`) and what it says (`DieEvent`), whatever its make;
- `pixels`, `godice`: each make's messages and advertisements, bytes in and out;
- `transport`: the seam to a Bluetooth stack (scan, connect, write, notify); `fake_transport`
  (scripted, for tests), `bleak_transport` (a real adapter: the only module that imports
  bleak) and `bumble_transport` (Google's Bumble, in-process, for tests and the bench);
- `matcher`: which place of the wanted roll a die's face fills;
- `table`: the paired dice kept connected (reconnect with backoff, battery, blinking);
- `source`: the table wired to a Session; `runner` runs both on their own thread and loop,
  `play_hook` starts them in `play` once the dice come from "smart";
- `ad_structures`: raw advertising data read and built (Bumble, the virtual dice);
- `settings`: the paired dice, kept in the user's settings file.
"""
