"""A pen with only multitouch axes is skipped, and the touchscreen beside it signs."""

GUEST = r'''
# A pen whose descriptor has only multitouch axes: signpad skips it, saying why in `signpad
# devices`, and reads the touchscreen beside it. It failed on such a device before.
: > /tmp/signpad.log
: > /run/uinput.pids
faulty=$(uinput_node /share/faulty-pen.evemu /tmp/evemu-faulty.out)
panel=$(uinput_node /share/signature.evemu /tmp/evemu-panel-faulty.out)
start_signpad
evemu-play "$panel" < /share/signature.evemu
sleep 1
ask "screendump faulty-signed"
say "FAULTY skipped=$(signpad devices | grep -A2 'signpad faulty pen' | grep -c 'skipped: no absolute X/Y axes') taken=$(grep -c '"signpad faulty pen" as' /tmp/signpad.log) touchscreen=$(grep -c '"signpad demo touchscreen" as touchscreen' /tmp/signpad.log) alive=$(alive)"
stop_signpad
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, fields, check, against_replay = run.shots, run.fields, run.check, run.against_replay
    faulty = fields('FAULTY')
    name = '3 a pen with only multitouch axes is skipped with the reason, and the touchscreen beside it signs'
    if shots['faulty-signed']:
        d, ink = against_replay(shots['faulty-signed'])
        told = (len(faulty) == 1 and faulty[0].get('skipped') == '1' and faulty[0].get('taken') == '0'
                and faulty[0].get('touchscreen') == '1' and faulty[0].get('alive') == 'yes')
        check(name, told and d < 0.002 and ink > 500,
              f"the demo signature on the touchscreen: {ink} ink pixels, {100 * d:.3f}% of the box differs from signpad replay; {faulty}")
    else:
        check(name, False, f'no screendump; {faulty}')
