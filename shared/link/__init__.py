"""The link between the board and the host: one implementation, used by both.

docs/protocol.md is the byte-level specification. The modules, bottom up:

- `framing`:  COBS(payload + CRC-16/CCITT-FALSE) + 0x00. `FrameDecoder().feed(data, pos,
  end)` returns the next position; after a good frame `decoder.length` > 0 and the payload
  is in `decoder.buf[:length]`. Bad frames are counted (`crc_errors`, `malformed`,
  `oversize`), never raised. `encode_frame(payload, n, out)`; the host's and tests'
  `frame(payload)` is in shared/host_only.py.
  `Endpoint`: what both ends share (timers, reading frames, counters); each writes its own.
- `messages`: the 3-byte header (type, seq, ack), the types HELLO, SNAPSHOT, EVENT, ACK,
  PING, PONG, ERROR, their pack functions, error codes `E_*`, board profiles `PROFILE_*`,
  `PROTOCOL_VERSION`, `seq_diff`, `event_record_problem` (a code for what is malformed
  in an event record, or 0; shared/words.py words it: both ends check every record with it).
- `board`'s `Journal(capacity=JOURNAL_EVENTS)`: the board's bounded ring of unacknowledged
  events (120 by default). Full means new local events are refused; nothing old is dropped.
- `digest`:   `state_digest(state, buf=None)`, CRC-16 of the encoded state (heartbeats;
  defined in `framing`, which the board imports it from).
- `board`:    `BoardSession(stream, state, fw=(major, minor), profile=PROFILE_*, grid=(w, h),
  nonce=None, journal_events=120, now_ms=0, undo=True)`. It holds the journal, one level
  of undo as an encoded state (`undo=False` saves it) and ~1 KB of buffers; a snapshot
  decodes straight into the state, and a bad one is undone from the state's encoding.
    * `poll(now_ms)` -> bits, 0 when nothing changed: 1 (the host's snapshot replaced the
      state: redraw), 2 (`.linked` changed), 4 (`.error` == E_VERSION, or `.rejected` grew).
      Allocates nothing when no byte arrives and nothing is due.
    * `submit_record(now_ms, record)` applies a press, its record (shared.events.write_event),
      at once (shared.events.apply_event, with one level of undo) and journals it. Returns
      ACCEPTED, JOURNAL_FULL (refused, show it) or INVALID (`.last_refusal` says why).
    * `.journal.count`, `.journal.refused`, `.linked`, `.error`, `.snapshots`, `.want_state` (0, or
      the length of our state frozen for a host that adopts it).
- `host`:     `HostSession(stream, state=None, applier=None, on_event=None, now_ms=0)`.
    * `poll(now_ms)`; `attach(stream, now_ms)` after a reconnect; `state_changed()` after
      the desktop changed `.state`; `quiet()`.
    * `resume_point()` -> (board nonce, next board seq) or None, and `restore(point)`: a
      host that saves the point with each applied event (inside the applier) and restores
      it after a restart applies no board event twice.
    * `applier(state, record)` applies one event record (default: apply_event with an
      undo history) and raises ValueError to refuse it; `on_event(record, accepted, reason)`.
    * `.board` (the board's HELLO), `.error_code`/`.error_text` (version mismatch),
      `.events_applied`, `.digest_mismatches`, `.resyncs`, `.board_refused`, `.relinks`
      (handshakes forced by a frame that contradicted what the host knew).
    * Both ends count input they cannot use in `.bad_messages` (the board shows it).
    * host/board/bridge.py runs it over pyserial ports, one thread per board.

Events themselves (codes, records, `apply_event`) live in `shared.events`. The stream is
anything with `in_waiting`, `readinto(buf)` and `write(buf)`: `usb_cdc.data` on the board
(set its `timeout` and `write_timeout` to 0 so nothing blocks when the cable is out), a
pyserial port on the desktop. Time is passed in as `now_ms` (adafruit_ticks arithmetic);
nothing here sleeps or starts a thread.
"""
