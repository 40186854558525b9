from risk.cli import main

main()
