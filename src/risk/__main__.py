from risk.cli.main import main

main()
