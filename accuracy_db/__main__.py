from accuracy_db.cli.main import main

main()
