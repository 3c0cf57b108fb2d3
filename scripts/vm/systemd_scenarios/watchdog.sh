# A hung daemon: the watchdog (WatchdogSec=10) kills it and Restart=on-failure starts it again.
hung_pid=$(prop MainPID)
restarts=$(prop NRestarts)
kill -STOP "$hung_pid"
wait_for 40 above "$restarts" prop NRestarts
wait_for 30 running
say "CHECK watchdog $(state) hung $hung_pid restarts_before $restarts"
ask "screendump sd-restarted"
