# An export folder on a tiny full tmpfs: a message for staff, nothing lost, saved once there is room.
mkdir -p /export-small
mount -t tmpfs -o size=512k small /export-small
dd if=/dev/zero of=/export-small/filler bs=4096 count=200 2>/dev/null
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'export.directory="/export-small"'
play /share/signature.evemu
play /share/tap-done.evemu
sleep 1
ask "screendump full"
# A power cut while the folder is full: the signature is nowhere but in the spool.
kill -KILL "$(cat /run/signpad.pid)"
say "SPOOL AT KILL $(ls -A /var/lib/signpad/spool | tr '\n' ' ')"
rm /export-small/filler
start_signpad --set 'input.device="signpad demo touchscreen"' --set 'export.directory="/export-small"'
for i in $(seq 50); do ls /export-small/*.meta.json >/dev/null 2>&1 && break; sleep 0.2; done
sleep 1
ask "screendump freed"
say "SPOOL AFTER RESTART $(ls -A /var/lib/signpad/spool | tr '\n' ' ')"
say "PHASE full"
for f in /export-small/*; do [ -f "$f" ] || continue; say "FILE $(basename "$f")"; base64 "$f"; say "END"; done
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
