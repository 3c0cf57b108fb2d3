play /share/tap-done.evemu
for i in $(seq 50); do ls /export/*.meta.json >/dev/null 2>&1 && break; sleep 0.2; done
send_exports
rm -f /export/*
play /share/signature.evemu
play /share/tap-clear.evemu
ask "screendump cleared"
stop_signpad
ask "screendump restored"
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
