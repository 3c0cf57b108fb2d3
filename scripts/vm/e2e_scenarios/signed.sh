play /share/signature.evemu
ask "screendump signed"
