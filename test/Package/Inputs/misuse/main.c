/* Never compiled: cmake-misuse.test stops at configure time. */
int main(void) { return 0; }
