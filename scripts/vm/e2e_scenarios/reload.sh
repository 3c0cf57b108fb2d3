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
say "RELOAD MODE refused=$(grep 'not reloading' /tmp/signpad.log | grep -c 'has no mode 1234x567') ready=$(grep -c "ready:" /tmp/signpad.log) alive=$(alive)"
# Nor one whose background image does not load (the new start paints it first). [kiosk] is the
# file's last table, and TOML takes a table's header once.
{ cat /tmp/config-original.toml; printf 'background_image = "/share/no-such-brand.png"\n'; } > /etc/signpad/signpad.toml
kill -HUP "$pid"
for i in $(seq 50); do [ "$(grep -c "not reloading" /tmp/signpad.log)" -ge 3 ] && break; sleep 0.1; done
say "RELOAD IMAGE refused=$(grep 'not reloading' /tmp/signpad.log | grep -c 'reason=kiosk.background_image: /share/no-such-brand.png') ready=$(grep -c "ready:" /tmp/signpad.log) alive=$(alive)"
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
