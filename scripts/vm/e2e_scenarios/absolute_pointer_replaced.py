"""Without input.device: the absolute pointer first, then a touchscreen that appears in its place."""

GUEST = r'''
# Without input.device: the usb-tablet, an absolute pointer (as a BMC's virtual mouse is), is all
# there is, so signpad takes it; a touchscreen that appears is taken in its place between customers.
: > /tmp/signpad.log
start_signpad
first=$(sed -n 's/.*input \/dev\/input\/event[0-9]* ".*" as \([a-z-]*\).*/\1/p' /tmp/signpad.log | head -1)
play /share/signature.evemu
say "AUTO first=$first replaced=$(grep -c 'in place of the absolute pointer' /tmp/signpad.log) touchscreen=$(grep -c '"signpad demo touchscreen" as touchscreen' /tmp/signpad.log) alive=$(alive)"
ask "screendump auto-signed"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, fields, check, against_replay = run.shots, run.fields, run.check, run.against_replay
    auto = fields('AUTO')
    if shots['auto-signed']:
        d, ink = against_replay(shots['auto-signed'])
        told = len(auto) == 1 and auto[0].get('first') == 'absolute-pointer' and auto[0].get('replaced') == '1' and \
            auto[0].get('touchscreen') == '1' and auto[0].get('alive') == 'yes'
        check('3 without input.device a touchscreen that appears replaces the absolute pointer', told and d < 0.002 and ink > 500,
              f"the usb-tablet taken first; the uinput touchscreen in its place: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay; {auto}")
    else:
        check('3 without input.device a touchscreen that appears replaces the absolute pointer', False, f'no screendump; {auto}')
