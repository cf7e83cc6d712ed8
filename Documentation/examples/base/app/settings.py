DEBUG = False
PORT = 80


def port():
    return PORT
