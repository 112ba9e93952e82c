"""The Java 5.3.3 ``mqadmin help CMD`` output of the commands we implement (recorded from the real tool)."""

REFERENCE: dict[str, str] = {
    "topicRoute": (
        "usage: mqadmin topicRoute [-h] [-l] [-n <arg>] -t <arg>\n"
        " -h,--help                Print help\n"
        " -l,--list                Use list format to print data\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "topicClusterList": (
        "usage: mqadmin topicClusterList [-h] [-n <arg>] -t <arg>\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "topicList": (
        "usage: mqadmin topicList [-c] [-h] [-n <arg>]\n"
        " -c,--clusterModel        clusterModel\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "allocateMQ": (
        "usage: mqadmin allocateMQ [-h] -i <arg> [-n <arg>] -t <arg>\n"
        " -h,--help                Print help\n"
        " -i,--ipList <arg>        ipList\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -t,--topic <arg>         topic name\n"
    ),
    "clusterList": (
        "usage: mqadmin clusterList [-c <arg>] [-h] [-i <arg>] [-m] [-n <arg>]\n"
        " -c,--clusterName <arg>   which cluster\n"
        " -h,--help                Print help\n"
        " -i,--interval <arg>      specify intervals numbers, it is in seconds\n"
        " -m,--moreStats           Print more stats\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "updateKvConfig": (
        "usage: mqadmin updateKvConfig [-h] -k <arg> [-n <arg>] -s <arg> -v <arg>\n"
        " -h,--help                Print help\n"
        " -k,--key <arg>           set the key name\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--namespace <arg>     set the namespace\n"
        " -v,--value <arg>         set the key value\n"
    ),
    "deleteKvConfig": (
        "usage: mqadmin deleteKvConfig [-h] -k <arg> [-n <arg>] -s <arg>\n"
        " -h,--help                Print help\n"
        " -k,--key <arg>           set the key name\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -s,--namespace <arg>     set the namespace\n"
    ),
    "wipeWritePerm": (
        "usage: mqadmin wipeWritePerm -b <arg> [-h] [-n <arg>]\n"
        " -b,--brokerName <arg>    broker name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "addWritePerm": (
        "usage: mqadmin addWritePerm -b <arg> [-h] [-n <arg>]\n"
        " -b,--brokerName <arg>    broker name\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "getNamesrvConfig": (
        "usage: mqadmin getNamesrvConfig [-h] [-n <arg>]\n"
        " -h,--help                Print help\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
    ),
    "updateNamesrvConfig": (
        "usage: mqadmin updateNamesrvConfig [-h] -k <arg> [-n <arg>] -v <arg>\n"
        " -h,--help                Print help\n"
        " -k,--key <arg>           config key\n"
        " -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"
        " -v,--value <arg>         config value\n"
    ),
}
