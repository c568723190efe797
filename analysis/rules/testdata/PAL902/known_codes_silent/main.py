x = 1  # noqa: E501
