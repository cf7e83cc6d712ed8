using System;

namespace Demo;

// Foo keeps a running count.
// It is a plain data holder.
// Nothing else lives here.
//
public class Foo
{
    public int Count;
}
