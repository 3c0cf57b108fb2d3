"""A drop of water that stays down: let go of at the idle timeout, and a finger signs meanwhile.

Its guest steps are water_drop.sh, beside this file; its host checks are check(run), here."""
from driver import W, dark_pixels


def check(run):
    shots, fields, check, drop = run.shots, run.fields, run.check, run.drop
    against_replay, around_drop = run.against_replay, run.around_drop
    water = fields('WATER')
    name = '3 a touch left down past the idle timeout is let go of: its dot is wiped and the next finger signs'
    if shots['water-dot'] and shots['water-signed']:
        dot = dark_pixels(shots['water-dot'][2], W, drop)
        d, ink = against_replay(shots['water-signed'])
        wiped = around_drop(shots['water-signed'])
        told = len(water) == 1 and water[0].get('letgo') == '1' and water[0].get('alive') == 'yes'
        check(name, told and dot >= 3 and wiped == 0 and d < 0.002 and ink > 500,
              f"the drop's dot: {dot} ink pixels, then {100 * wiped:.1f}% of the pixels around it differ from the dry panel's; "
              f"a finger signs while the drop stays: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay "
              f"of the dry panel; {water}")
    else:
        check(name, False, f'no screendump; {water}')
