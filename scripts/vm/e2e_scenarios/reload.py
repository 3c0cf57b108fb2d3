"""SIGHUP: broken, misfitting and good configurations; the console never the daemon's terminal."""
import os, re

from driver import W, dark_pixels, read_png, region_diff

GUEST = r'''
# SIGHUP. A configuration that does not load is refused and signpad goes on; one that loads waits
# until the customer at the pad is done, then is applied in the same process. Started in a session
# of its own, as systemd starts a service, on a console that must not become its terminal.
cp /etc/signpad/signpad.toml /tmp/config-original.toml
: > /tmp/signpad.log
wrap=setsid
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'display.vt="/dev/tty1"'
wrap=
pid=$(pidof signpad)
echo "$pid" > /run/signpad.pid
say "CTTY AT START $pid $(cut -d' ' -f6,7 /proc/$pid/stat)"
play /share/signature.evemu
echo 'this line is not TOML' >> /etc/signpad/signpad.toml
kill -HUP "$pid"
for i in $(seq 50); do grep -q "not reloading" /tmp/signpad.log && break; sleep 0.1; done
# A file that loads but names a mode the panel does not have: the new start could not take the
# screen, so the reload is refused and the kiosk goes on.
sed 's/^mode = .*/mode = "1234x567"/' /tmp/config-original.toml > /etc/signpad/signpad.toml
kill -HUP "$pid"
for i in $(seq 50); do [ "$(grep -c "not reloading" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
say "RELOAD MODE refused=$(grep -c 'not reloading: .* has no mode 1234x567' /tmp/signpad.log) ready=$(grep -c "ready:" /tmp/signpad.log) alive=$(alive)"
# Nor one whose background image does not load (the new start paints it first). [kiosk] is the
# file's last table, and TOML takes a table's header once.
{ cat /tmp/config-original.toml; printf 'background_image = "/share/no-such-brand.png"\n'; } > /etc/signpad/signpad.toml
kill -HUP "$pid"
for i in $(seq 50); do [ "$(grep -c "not reloading" /tmp/signpad.log)" -ge 3 ] && break; sleep 0.1; done
say "RELOAD IMAGE refused=$(grep -c 'not reloading: kiosk.background_image: /share/no-such-brand.png' /tmp/signpad.log) ready=$(grep -c "ready:" /tmp/signpad.log) alive=$(alive)"
cp /tmp/config-original.toml /etc/signpad/signpad.toml
printf 'background_color = "#D0E8FF"\nprompt = "Reloaded: please sign below"\n' >> /etc/signpad/signpad.toml
kill -HUP "$pid"
for i in $(seq 50); do grep -q "received SIGHUP" /tmp/signpad.log && break; sleep 0.1; done
ask "screendump waiting"
play /share/tap-clear.evemu
for i in $(seq 100); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
sleep 0.5
say "RELOAD READY $(grep -c "ready:" /tmp/signpad.log) PIDS $pid $(pidof signpad)"
say "CTTY AFTER RELOAD $pid $(cut -d' ' -f6,7 /proc/$pid/stat)"
ask "screendump reloaded"
stop_signpad
cp /tmp/config-original.toml /etc/signpad/signpad.toml
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, check, markers, all_logs = run.shots, run.check, run.markers, run.all_logs
    args, expected_signed, box, whole = run.args, run.expected_signed, run.box, run.whole
    # SIGHUP: a broken file is refused (file and line named); a good one waits for the customer's
    # Clear, then the same process starts again and draws exactly what the new file draws offscreen.
    refused = re.search(r'not reloading: (\S+signpad\.toml:\d+)', all_logs)
    # "RELOAD READY <ready: lines> PIDS <pid before> <pid after>"
    reload = next((m.split() for m in markers if m.startswith('RELOAD READY')), [])
    ready, pids = (reload[2], reload[4:]) if len(reload) > 4 else ('?', [])
    expected_reloaded = read_png(os.path.join(args.expected, 'reloaded.png'))
    if shots['waiting'] and shots['reloaded']:
        waiting_ink = dark_pixels(shots['waiting'][2], W, box)
        waiting_same = region_diff(shots['waiting'][2], expected_signed[2], W, box)
        # At 16 the new background (47 from white in red) counts: a missed reload differs almost everywhere.
        d = region_diff(shots['reloaded'][2], expected_reloaded[2], W, whole, threshold=16)
        check('9 SIGHUP: a broken configuration is refused; a good one waits for the customer, then applies in the same process',
              refused is not None and 'reloading once nobody is at the pad' in all_logs and waiting_ink > 500 and waiting_same < 0.002 and
              ready == '2' and len(pids) == 2 and pids[0] == pids[1] and d < 0.01,
              f"refused: {refused.group(1) if refused else 'NOT LOGGED'}; while signing: {waiting_ink} ink pixels, {100 * waiting_same:.3f}% of the box differs "
              f"from before the signal; after Clear: ready {ready} times, pid {' then '.join(pids) or '?'}, {100 * d:.3f}% of pixels differ from the new configuration offscreen")
    else:
        check('9 SIGHUP: a broken configuration is refused; a good one waits for the customer, then applies in the same process', False, 'no screendumps')
    # "RELOAD MODE refused=<n> ready=<n> alive=yes": a mode the panel lacks is refused before the screen is handed back.
    mode = next((dict(w.split('=', 1) for w in m.split()[2:]) for m in markers if m.startswith('RELOAD MODE')), {})
    check('9 SIGHUP: a configuration naming a mode the panel does not have is refused, and the kiosk goes on',
          mode.get('refused') == '1' and mode.get('ready') == '1' and mode.get('alive') == 'yes',
          f"{mode or 'no RELOAD MODE line'}; {re.search(r'not reloading: [^;]*has no mode 1234x567[^;]*', all_logs).group(0) if 'has no mode 1234x567' in all_logs else 'not logged'}")
    image = next((dict(w.split('=', 1) for w in m.split()[2:]) for m in markers if m.startswith('RELOAD IMAGE')), {})
    check('9 SIGHUP: a configuration whose background image does not load is refused, and the kiosk goes on',
          image.get('refused') == '1' and image.get('ready') == '1' and image.get('alive') == 'yes',
          f"{image or 'no RELOAD IMAGE line'}; {re.search(r'not reloading: kiosk.background_image: /share/no-such-brand.png[^;]*', all_logs).group(0) if 'not reloading: kiosk.background_image: /share/no-such-brand.png' in all_logs else 'not logged'}")
    # /proc/PID/stat: the session (the PID itself for a session leader) and tty_nr (0: no terminal).
    ttys = [m.split()[-3:] for m in markers if m.startswith('CTTY')]
    check('5 the console stays no terminal of the daemon (O_NOCTTY)', len(ttys) == 2 and all(p == sid and tty == '0' for p, sid, tty in ttys),
          "signpad holding /dev/tty1, at start and after a reload: " + '; '.join(f'pid {p} session {sid} tty_nr {tty}' for p, sid, tty in ttys))
