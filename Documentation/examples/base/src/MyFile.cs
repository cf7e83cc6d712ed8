namespace Demo;

public class MyFile
{
    private readonly ILogger _adminLogger;

    public MyFile(ILogger adminLogger) => _adminLogger = adminLogger;

    public void OldMethod()
    {
        _adminLogger.Trace("[OldTag]");
    }
}
