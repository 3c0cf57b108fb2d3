"""A reload whose configuration a start would refuse is refused: the kiosk goes on as it was."""
from driver import W, H, region_diff

GUEST = r'''
# The control socket's group edited to one that does not exist: a start would refuse it (78), and
# the unit does not restart after 78. The reload is refused, the same process keeps the screen and
# the socket, and the file is put back.
cp /etc/signpad/signpad.toml /run/signpad.toml.good
sed -i 's/^group = "signpad-pos"/group = "no-such-group"/' /etc/signpad/signpad.toml
refusals=$(logged "not reloading")
pid_before=$(prop MainPID)
systemctl reload signpad
reload_status=$?
wait_for 30 test "$(logged "not reloading")" -gt "$refusals"
sleep 2
answers=silent
signpad request --socket /run/signpad/control.sock --status > /dev/null 2>&1 && answers=yes
say "CHECK refusedreload $(state) status $reload_status refused $(( $(logged "not reloading") - refusals )) before $pid_before socket $answers"
ask "screendump sd-refused-reload"
cp /run/signpad.toml.good /etc/signpad/signpad.toml
'''


def check(run):
    refused = run.said('refusedreload')
    shot = run.shot('sd-refused-reload')
    d = region_diff(shot, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if shot else 1
    same = refused['state'] == 'active/running' and refused.get('pid') == refused.get('before') and refused.get('refused') == '1' and \
        refused.get('socket') == 'yes' and refused.get('status') == '0'
    run.check('S29 a reload that a start would refuse is refused; the kiosk goes on as it was', same and d < 0.01,
              f"{refused['text']}; {100 * d:.3f}% of pixels differ from the screen before it")
