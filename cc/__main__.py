from cc.main import main

main()
