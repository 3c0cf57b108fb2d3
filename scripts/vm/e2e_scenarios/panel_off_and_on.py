"""A panel switched off and on (the connector forced off): the output goes off and comes back with the ink.

Its guest steps are panel_off_and_on.sh, beside this file; its host checks are check(run), here."""
from driver import W, region_diff


def check(run):
    shots, fields, check, whole = run.shots, run.fields, run.check, run.whole
    panel = fields('PANEL')
    if shots['panel-off'] and shots['panel-on'] and shots['signed']:
        dark = region_diff(shots['panel-off'][2], shots['signed'][2], W, whole)
        back = region_diff(shots['panel-on'][2], shots['signed'][2], W, whole)
        told = len(panel) == 1 and panel[0].get('off') == '1' and panel[0].get('back') == '1' and panel[0].get('alive') == 'yes'
        check('5 a panel switched off and on is shown again with its ink', told and dark > 0.5 and back < 0.002,
              f"connector forced off: output off ({100 * dark:.1f}% of pixels differ from the signed screen); "
              f"back: mode set again, {100 * back:.3f}% differ; {panel}")
    else:
        check('5 a panel switched off and on is shown again with its ink', False, f'no screendump; {panel}')
