"""What family authors and the documentation use: examples run as tests, the generated
rule and kind pages, and the JSON Schemas of the inputs."""
