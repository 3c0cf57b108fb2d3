"""The kiosk VM test's scenarios, two files each: name.sh, its guest steps (busybox shell run by
the VM's /init after guest.sh's start and helpers and the scenarios before it), and name.py, its
host checks (check(run), on what the guest reported). They run in this order; a scenario may go
on from what the one before left (the signpad it started, the connector's status file in $status)."""
import os, re

import scenario_files
from driver import W, H, dark_pixels, layout, read_png, read_ppm, region_diff

ORDER = [
    'late_display', 'display_replugged', 'signed', 'panel_off_and_on', 'done_and_clear', 'usb_tablet', 'rotated',
    'absolute_pointer_replaced', 'pen_and_touchscreen', 'water_drop', 'resting_hand', 'water_flicker', 'faulty_pen',
    'sleep', 'other_panel', 'flood_and_crash', 'killed_mid_export', 'full_folder', 'hung_share', 'unmounted_share',
    'misfit', 'reload', 'calibrate', 'bench',
]

def scenarios():
    return scenario_files.load(__name__, ORDER)


def guest_script():
    """The VM's /init: the start and helpers, each scenario's steps, then the end."""
    return scenario_files.guest_script(__name__, ORDER)


class Shots(dict):
    """The screendumps the guest asked for, by name, read when first asked for; None if it never came."""

    def __init__(self, out):
        super().__init__()
        self.out = out

    def __missing__(self, name):
        p = os.path.join(self.out, name + '.ppm')
        self[name] = read_ppm(p) if os.path.exists(p) else None
        return self[name]


class Run(scenario_files.Checks):
    """What the guest reported, for the scenarios' checks: the screendumps, the markers (its
    upper-case E2E lines), the files of each phase, the daemon's logs, and the expected screens
    from signpad replay."""

    def __init__(self, args, markers, phase_files, all_logs):
        super().__init__(args.gpu)
        self.args, self.markers, self.phase_files, self.all_logs = args, markers, phase_files, all_logs
        self.files = phase_files['main']
        self.shots = Shots(args.out)
        self.expected_initial = read_png(os.path.join(args.expected, 'initial.png'))
        self.expected_signed = read_png(os.path.join(args.expected, 'signed.png'))
        self.box, _, _ = layout(W, H)
        self.whole = (0, 0, W, H)
        # The drop (and the resting hand) lands at panel (3800, 3050): screen (950, 572), right of the signature.
        self.drop = (930, 552, 970, 592)
        box, signed, initial, drop = self.box, self.expected_signed, self.expected_initial, self.drop

        def against_replay(shot):
            """How much of the box differs from signpad replay's signed screen, and the ink pixels in it."""
            if shot[:2] != (W, H):
                return 1, 0
            return region_diff(shot[2], signed[2], W, box), dark_pixels(shot[2], W, box)

        def around_drop(shot):
            """How much of the area where the drop or hand lies differs from the signed dry panel's."""
            return region_diff(shot[2], signed[2], W, drop) if shot[:2] == (W, H) else 1

        def against_fresh(shot):
            """How much of the box differs from the fresh kiosk's."""
            return region_diff(shot[2], initial[2], W, box) if shot[:2] == (W, H) else 1

        self.against_replay, self.around_drop, self.against_fresh = against_replay, around_drop, against_fresh

    def fields(self, prefix):
        """The key=value words (a value may be a [bracketed list]) of each marker with this prefix."""
        return [dict(w.split('=', 1) for w in re.findall(r'\w+=(?:\[[^\]]*\]|\S+)', m)) for m in self.markers if m.startswith(prefix)]
