# The end of the run: the host driver stops reading at DONE.
say "DONE"
poweroff -f
