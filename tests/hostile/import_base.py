"""A strategy file that raises a BaseException of its own while it is imported."""


class Custom(BaseException):
    pass


raise Custom("not today")
