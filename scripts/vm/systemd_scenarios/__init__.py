"""The systemd VM test's scenarios, two files each: name.sh, its guest steps (bash run on the
kiosk after guest.sh's helpers and the scenarios before it), and name.py, its host checks
(check(run), on what the guest reported). They run in this order; a later scenario may use what
an earlier one left (the kiosk's key, the reloaded screen)."""
import os

import scenario_files
from driver import read_ppm

ORDER = [
    'started', 'signed_and_exported', 'status_while_failing', 'reload', 'refused_reload', 'watchdog', 'point_of_sale',
    'killed_after_done', 'stop',
    'share_mounted_late', 'bad_configuration', 'udev_calibration', 'key_across_upgrade', 'tpm_key', 'document_signed', 'certificate_ended',
]

def scenarios():
    return scenario_files.load(__name__, ORDER)


def guest_script():
    """What signpad-vm-check.service runs: the helpers, each scenario's steps, then the journal."""
    return scenario_files.guest_script(__name__, ORDER)


class Run(scenario_files.Checks):
    """What the guest reported, for the scenarios' checks."""

    def __init__(self, tag, out, checks, statuses, files, journal, expected):
        super().__init__(tag)
        self.out, self.checks, self.statuses, self.files, self.journal = out, checks, statuses, files, journal
        self.expected = expected

    def shot(self, name):
        """A screendump the guest asked for, as pixels; None if it never came."""
        p = os.path.join(self.out, name + '.ppm')
        return read_ppm(p)[2] if os.path.exists(p) else None

    def said(self, name):
        """A CHECK line as {'state': …, key: value}: an odd word count starts with the unit's state."""
        words = self.checks.get(name, [[]])[0]
        state, pairs = (words[0], words[1:]) if len(words) % 2 else ('', words)
        return {'state': state, **dict(zip(pairs[::2], pairs[1::2])), 'text': ' '.join(words) or 'never reported'}
