from inwards_cli.main import main

main()
