# Sources of the runtime's datatypes part.
