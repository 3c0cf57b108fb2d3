# The end of the run: the journal for the host checks, then DONE, then the VM goes down.
say "LOG BEGIN"
journal
say "LOG END"
say "DONE"
systemctl poweroff
