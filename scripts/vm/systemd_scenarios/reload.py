"""`systemctl reload` with an edited file applies it in the same process."""
from driver import W, H, region_diff

GUEST = r'''
# A reload with a changed configuration, once "Saved" has gone (nobody is at the pad).
sleep 2.5
sed -i -e 's/^background_color = .*/background_color = "#D0E8FF"/' -e 's/^prompt = .*/prompt = "Reloaded: please sign below"/' /etc/signpad/signpad.toml
reloads=$(logged "ready:")
systemctl reload signpad
reload_status=$?
wait_for 30 test "$(logged "ready:")" -gt "$reloads"
wait_for 10 running
say "CHECK reload $(state) status $reload_status ready_before $reloads ready_after $(logged "ready:") first $first_pid"
ask "screendump sd-reloaded"
'''


def check(run):
    # The new background differs from the old by 47 in red: the threshold must be below that.
    reload = run.said('reload')
    reloaded = run.shot('sd-reloaded')
    d = region_diff(reloaded, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if reloaded else 1
    reload_ok = reload['state'] == 'active/running' and reload.get('status') == '0' and reload.get('pid') == reload.get('first') and \
        int(reload.get('ready_after', 0)) == int(reload.get('ready_before', 0)) + 1
    run.check('S6 systemctl reload applies the edited file in the same process', reload_ok and d < 0.01,
              f"{reload['text']}; {100 * d:.3f}% of pixels differ from signpad replay of the new file")
