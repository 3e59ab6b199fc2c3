"""Loading and refreshing: the build, the inbox of submissions, registered folders, the data's fetch."""
