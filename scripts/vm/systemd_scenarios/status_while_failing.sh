# systemctl status tells a failing export folder: made unwritable for a signature, then writable.
metas_before=$(exported_records)
evemu-device /usr/share/signpad-vm/signature.evemu > /run/evemu-status.out 2>&1 &
status_pid=$!
wait_for 5 grep -q '/dev/input/event' /run/evemu-status.out
node=$(sed -n 's/.*: \(\/dev\/input\/event[0-9]*\)$/\1/p' /run/evemu-status.out)
status_has 10 'signpad demo touchscreen'
say "STATUS reading $(prop StatusText)"
evemu-play "$node" < /usr/share/signpad-vm/signature.evemu
failures_before=$(logged 'failed, kept and retried')
mended_before=$(logged 'writes work again after')
chmod 0550 "$exports"
evemu-play "$node" < /usr/share/signpad-vm/tap-done.evemu
status_has 15 'NOT SAVING'
say "STATUS failing $(prop StatusText)"
# Two more retries (every 5 s) fail while the folder stays unwritable: the journal says it once.
sleep 11
chmod 0750 "$exports"
wait_for 20 sh -c "systemctl show -p StatusText --value signpad | grep -qv 'NOT SAVING'"
sleep 0.5
say "STATUS recovered $(prop StatusText)"
say "CHECK statusexport before $metas_before after $(ls "$exports"/*.meta.json | wc -l)"
say "CHECK exportlog failed $(( $(logged 'failed, kept and retried') - failures_before )) mended $(( $(logged 'writes work again after') - mended_before ))"
# Each line has its level as the journal's priority: the failure an error, the ready line info.
say "CHECK priorities failures $(logged 'failed, kept and retried') as_error $(journalctl -u signpad -p err -o cat --no-pager | grep -c 'failed, kept and retried') ready $(logged 'ready:') ready_as_warning $(journalctl -u signpad -p warning -o cat --no-pager | grep -c 'ready:')"
# Each entry's details are fields of their own: the failure's reason, and where in signpad it was
# said (end.sh measures every line of the run).
journalctl -u signpad -o verbose --no-pager > /run/journal-verbose.txt
reason=$(sed -n 's/^ *SIGNPAD_REASON=//p' /run/journal-verbose.txt | head -1)
selected=$(journalctl -u signpad -o cat --no-pager SIGNPAD_REASON="$reason" | wc -l)
say "CHECK journalfields reasons $(grep -c '^ *SIGNPAD_REASON=' /run/journal-verbose.txt) code $(grep -c '^ *CODE_FILE=' /run/journal-verbose.txt) selected $selected inline $(logged ' reason=')"
kill "$status_pid"; wait "$status_pid" 2>/dev/null
status_has 10 'waiting for a touch device'
say "STATUS gone $(prop StatusText)"
