# A hung daemon: the watchdog (WatchdogSec=10) kills it and Restart=on-failure starts it again.
hung_pid=$(prop MainPID)
kill -STOP "$hung_pid"
wait_for 40 test "$(prop NRestarts)" -ge 1
wait_for 30 running
say "CHECK watchdog $(state) hung $hung_pid"
ask "screendump sd-restarted"
