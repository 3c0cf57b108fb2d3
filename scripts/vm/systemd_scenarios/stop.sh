systemctl stop signpad
say "CHECK stopped $(state)"
sleep 1
ask "screendump sd-stopped"
