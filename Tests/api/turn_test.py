#!/usr/bin/env python3
"""The loop's longest turn, as GetStatus and the exit's report tell it, through PyPI's varlink
client against the offscreen daemon. Run by `swift test` (LoopTurnTests); on its own:

    SIGNPAD=.build/debug/signpad python3 Tests/api/turn_test.py
"""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from control_api_test import Kiosk  # noqa: E402

# The heaviest title a request may have: 300 combining marks in all, 30 to a character (the
# stream-safe limit), on a base no mark composes with, so NFC keeps them all.
HEAVY_TITLE = ("\u0278" + "".join(chr(0x0300 + i) for i in range(30))) * 10


class LoopTurnTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="signpad-turn-")
        self.kiosk = Kiosk(self.folder, confirm=False).start()

    def tearDown(self):
        self.kiosk.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def test_the_longest_turn_grows_when_a_turn_lays_out_a_request(self):
        with self.kiosk.client() as client, client.open("org.signpad.Kiosk") as pad:
            idle = pad.GetStatus()
            self.assertGreaterEqual(idle["longestTurnMs"], 0)
            replies = pad.RequestSignature(reference="TURN-1", title=HEAVY_TITLE, lines=["Card ****1234"], _more=True)
            shown = next(replies)
            self.assertEqual(shown.get("progress"), "shown")
            with self.kiosk.client() as other, other.open("org.signpad.Kiosk") as canceller:
                busy = canceller.GetStatus()
                canceller.CancelRequest(shown["id"])
            self.assertEqual(list(replies)[-1]["status"], "cancelled")
        # Showing the request painted the screen and shaped three hundred marks in one turn.
        self.assertGreater(busy["longestTurnMs"], idle["longestTurnMs"], (idle, busy))
        self.assertIn("control", busy["longestTurnHandled"], busy)
        self.assertRegex(busy["longestTurnAt"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
        self.kiosk.stop()
        self.assertRegex(self.kiosk.journal(), r"longest loop turn \d+\.\d ms")


if __name__ == "__main__":
    unittest.main(verbosity=2)
