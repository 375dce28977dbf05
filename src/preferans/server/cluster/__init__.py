"""Several server processes behind one address: a bus between them (Redis), each table
owned by one process at a time under a lease, the others passing its sockets' messages on.
"""
