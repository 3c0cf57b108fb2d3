if wait_for 120 running; then
    say "CHECK started $(state)"
else
    say "FAIL signpad.service is not active/running: $(state)"
fi
first_pid=$(prop MainPID)
say "STATUS start $(prop StatusText)"
ask "screendump sd-initial"
say "CHECK console kdsetmode_failed $(logged "KDSETMODE") open_failed $(logged "to hide the console")"
