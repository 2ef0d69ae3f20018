// Error classes and codes that the application adds (MPI_Add_error_class / _code / _string).
// They take the values after MPI_ERR_LASTCODE, classes and codes from one counter, so that
// MPI_Error_class and MPI_Error_string can tell every value apart.
#pragma once

#include <string>

namespace halyard::mpi_shim {

int add_error_class();
// MPI_ERR_ARG unless `error_class` is a class (predefined or added).
int add_error_code(int error_class);
// MPI_ERR_ARG unless `code` is an added class or code.
void set_error_string(int code, std::string text);

// The class of an added code (an added class is its own); -1 when `code` was not added.
int added_code_class(int code);
// MPI_Error_string's text of an added code ("" until MPI_Add_error_string names it).
const std::string& added_code_text(int code);
// The largest value in use: the MPI_LASTUSEDCODE attribute, which tracks it.
const int* last_used_code();

}  // namespace halyard::mpi_shim
