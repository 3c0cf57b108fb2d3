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
say "FAULTY skipped=$(signpad devices | grep -A2 'signpad faulty pen' | grep -c 'skipped: no absolute X/Y axes') taken=$(taken '[a-z-]*' 'signpad faulty pen') touchscreen=$(taken touchscreen 'signpad demo touchscreen') alive=$(alive)"
stop_signpad
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
