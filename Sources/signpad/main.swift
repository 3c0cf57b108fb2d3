print("signpad")
